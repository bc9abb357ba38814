package dev.lancemaintenance.compaction;

import java.util.Map;

/**
 * An engine that can run a compaction's tasks: the local thread pool, Spark, Flink. Found with
 * {@link java.util.ServiceLoader}, like {@link dev.lancemaintenance.cleanup.CleanupEngine}, under
 * the same names, so that {@code --engine} picks both halves of an optimize.
 */
public interface CompactionEngine {

  /** The name users pass as {@code --engine}. */
  String name();

  /**
   * A compact action on {@code tableUri}.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options (e.g. {@code aws_region}); may
   *     hold secrets, never log them
   * @param engineOptions engine settings such as {@code master}
   */
  CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions);
}
