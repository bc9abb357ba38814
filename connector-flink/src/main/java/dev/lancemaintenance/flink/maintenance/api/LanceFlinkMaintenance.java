package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Entry point for people who build their own Flink jobs:
 *
 * <pre>{@code
 * CleanupResult result = LanceFlinkMaintenance.cleanup(env, "s3a://bucket/t.lance")
 *     .olderThan(Duration.ofDays(7))
 *     .execute();
 * }</pre>
 *
 * and {@link #compact} / {@link #optimize} for compaction, which needs the Lance SDK in the client
 * and on the task managers.
 */
public final class LanceFlinkMaintenance {
  private LanceFlinkMaintenance() {}

  /** A cleanup of {@code tableUri} on {@code env}, with Hadoop's default storage configuration. */
  public static FlinkCleanupAction cleanup(StreamExecutionEnvironment env, String tableUri) {
    return cleanup(env, tableUri, Map.of());
  }

  /**
   * A cleanup of {@code tableUri} on {@code env}.
   *
   * @param storageOptions Hadoop configuration entries for the table's store; may hold secrets
   */
  public static FlinkCleanupAction cleanup(
      StreamExecutionEnvironment env, String tableUri, Map<String, String> storageOptions) {
    return new FlinkCleanupAction(
        env, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(storageOptions)), Clock.systemUTC());
  }

  /**
   * A compaction of {@code tableUri} on {@code env}.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options (e.g. {@code aws_region}); may hold secrets
   */
  public static FlinkCompactAction compact(
      StreamExecutionEnvironment env, String tableUri, Map<String, String> sdkStorageOptions) {
    return new FlinkCompactAction(env, CompactionTable.of(TableLocation.of(tableUri), sdkStorageOptions));
  }

  /**
   * Optimize of {@code tableUri} on {@code env}: the tag pre-flight, a Flink compaction job, then a
   * Flink cleanup job. Compaction settings go on {@link OptimizeAction#compaction()}.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options, for the compaction
   * @param hadoopOptions Hadoop configuration entries for the cleanup's store
   */
  public static OptimizeAction optimize(
      StreamExecutionEnvironment env,
      String tableUri,
      Map<String, String> sdkStorageOptions,
      Map<String, String> hadoopOptions) {
    return new OptimizeAction(
        TableLocation.of(tableUri),
        HadoopTableStorage.factory(StorageConf.of(hadoopOptions)),
        compact(env, tableUri, sdkStorageOptions),
        cleanup(env, tableUri, hadoopOptions),
        Clock.systemUTC());
  }
}
