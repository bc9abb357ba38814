package dev.lancemaintenance;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.compaction.CompactAction;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * An engine maintenance runs on: the local thread pool, Spark or Flink. It has a name, reads a
 * fixed set of engine options and makes every action, so that one {@code --engine} picks both
 * halves of an optimize. Found with {@link java.util.ServiceLoader} ({@code
 * META-INF/services/dev.lancemaintenance.MaintenanceEngine} in each engine's jar), so the command
 * line compiles against neither Spark nor Flink and an engine is there when its jar is.
 *
 * <p>Engine options may be given to any action of the engine; a key the engine does not read is an
 * error naming it, since a misspelt option must not be silently ignored.
 */
public abstract class MaintenanceEngine {
  private final String name;
  private final Set<String> options;

  /**
   * @param name what users pass as {@code --engine}
   * @param options the engine options it reads; {@code "spark.*"} admits every key with that
   *     prefix (Spark settings)
   */
  protected MaintenanceEngine(String name, Set<String> options) {
    this.name = Objects.requireNonNull(name, "name");
    this.options = Set.copyOf(options);
  }

  /** The name users pass as {@code --engine}. */
  public final String name() {
    return name;
  }

  /**
   * A cleanup action on {@code tableUri}.
   *
   * @param storageOptions Hadoop configuration entries for the table's store (e.g. {@code
   *     fs.s3a.endpoint}); may hold secrets, never log them
   * @param engineOptions engine settings such as {@code master} or {@code parallelism}
   */
  public abstract CleanupAction cleanup(
      String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions);

  /**
   * A compact action on {@code tableUri}.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options (e.g. {@code aws_region}); may
   *     hold secrets, never log them
   * @param engineOptions engine settings such as {@code master}
   */
  public abstract CompactAction compact(
      String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions);

  /** {@code engineOptions}, once every key is one this engine reads; else an error naming the key and them. */
  protected final Map<String, String> checked(Map<String, String> engineOptions) {
    for (String key : engineOptions.keySet()) {
      boolean spark = options.contains("spark.*") && key.startsWith("spark.");
      if (!spark && !options.contains(key)) {
        throw new IllegalArgumentException("The " + name + " engine has no option '" + key + "'; its options: "
            + String.join(", ", new TreeSet<>(options)));
      }
    }
    return engineOptions;
  }
}
