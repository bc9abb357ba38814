package dev.lancemaintenance.cleanup;

import java.util.Map;

/**
 * An engine that can run a cleanup: the local thread pool, Spark, Flink. Found with {@link
 * java.util.ServiceLoader} so the command line in {@code common} can offer every engine on its
 * classpath without depending on it.
 */
public interface CleanupEngine {

  /** The name users pass as {@code --engine}. */
  String name();

  /**
   * A cleanup action on {@code tableUri}.
   *
   * @param storageOptions Hadoop configuration entries for the table's store (e.g. {@code
   *     fs.s3a.endpoint}); may hold secrets, never log them
   * @param engineOptions engine settings such as {@code master} or {@code parallelism}
   */
  CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions);

  /**
   * Rejects an engine option the engine does not read, naming it and the ones it does: a misspelt
   * option must not be silently ignored. {@code "spark.*"} in {@code known} admits every key with
   * that prefix (Spark settings).
   */
  static void requireKnownOptions(String engine, Map<String, String> engineOptions, java.util.Set<String> known) {
    for (String key : engineOptions.keySet()) {
      boolean spark = known.contains("spark.*") && key.startsWith("spark.");
      if (!spark && !known.contains(key)) {
        throw new IllegalArgumentException("The " + engine + " engine has no option '" + key + "'; its options: "
            + String.join(", ", new java.util.TreeSet<>(known)));
      }
    }
  }
}
