package dev.lancemaintenance.flink.maintenance.api;

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
}
