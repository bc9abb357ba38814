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
}
