package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.maintenance.operator.Keys;
import dev.lancemaintenance.flink.maintenance.operator.PeriodicCleanupSpec;
import dev.lancemaintenance.flink.maintenance.operator.Ticks;
import dev.lancemaintenance.flink.maintenance.operator.TriggerCleanup;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Periodic cleanup a streaming job attaches beside its writer:
 *
 * <pre>{@code
 * DataStream<CleanupResult> results = PeriodicMaintenance.cleanup("s3a://bucket/t.lance")
 *     .every(Duration.ofMinutes(30))
 *     .everyNewVersions(100)
 *     .olderThan(Duration.ofHours(6))
 *     .append(env);
 * }</pre>
 *
 * <p>A tick source (one tick per {@link #checkEvery}) drives a parallelism-1 operator that runs a
 * cleanup when due, holding a lock in the table's storage so no two runs (from this job or another)
 * overlap; see {@link TriggerCleanup}. Results stream out; metrics are under {@code
 * lance_maintenance}. Enable checkpointing so the schedule survives restarts.
 */
public final class PeriodicMaintenance {
  private final String tableUri;
  private Map<String, String> storageOptions = Map.of();
  private Duration interval = Duration.ZERO;
  private long newVersions;
  private Duration olderThan = CleanupPolicy.DEFAULT_OLDER_THAN;
  private Duration checkEvery = Duration.ofMinutes(1);
  private Duration lease = Duration.ofHours(1);
  private String uidSuffix = "";

  private PeriodicMaintenance(String tableUri) {
    this.tableUri = Objects.requireNonNull(tableUri, "tableUri");
  }

  public static PeriodicMaintenance cleanup(String tableUri) {
    return new PeriodicMaintenance(tableUri);
  }

  /** Hadoop configuration entries for the table's store; may hold secrets. */
  public PeriodicMaintenance storageOptions(Map<String, String> options) {
    this.storageOptions = Map.copyOf(options);
    return this;
  }

  /** Run when this much processing time passed since the last run. */
  public PeriodicMaintenance every(Duration value) {
    this.interval = positive("every", value);
    return this;
  }

  /** Run when this many versions were committed since the last run. */
  public PeriodicMaintenance everyNewVersions(long versions) {
    if (versions < 1) {
      throw new IllegalArgumentException("everyNewVersions must be > 0: " + versions);
    }
    this.newVersions = versions;
    return this;
  }

  /**
   * Each run removes versions older than this. Too short a window can remove a version a reader of
   * the streaming job's output still uses.
   */
  public PeriodicMaintenance olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    this.olderThan = value;
    return this;
  }

  /** How often to check whether a run is due (and list the table's versions to do so). */
  public PeriodicMaintenance checkEvery(Duration value) {
    this.checkEvery = positive("checkEvery", value);
    return this;
  }

  /** How long a run may hold the table's lock; a holder that dies frees it after this. */
  public PeriodicMaintenance lease(Duration value) {
    this.lease = positive("lease", value);
    return this;
  }

  /** Appended to the operators' uids, for jobs that maintain several tables. */
  public PeriodicMaintenance uidSuffix(String suffix) {
    this.uidSuffix = Objects.requireNonNull(suffix, "suffix");
    return this;
  }

  /** Adds the ticks and the trigger to {@code env}; returns the stream of run results. */
  public DataStream<CleanupResult> append(StreamExecutionEnvironment env) {
    TableLocation table = TableLocation.of(tableUri);
    PeriodicCleanupSpec spec =
        new PeriodicCleanupSpec(table, StorageConf.of(storageOptions), interval, newVersions, olderThan, lease);
    DataGeneratorSource<Long> ticks =
        new DataGeneratorSource<>(
            new Ticks(), Long.MAX_VALUE, RateLimiterStrategy.perSecond(1000.0 / checkEvery.toMillis()), Types.LONG);
    String suffix = uidSuffix.isEmpty() ? "" : "-" + uidSuffix;
    String triggerUid = "lance-periodic-cleanup" + suffix;
    return env.fromSource(ticks, WatermarkStrategy.noWatermarks(), "lance maintenance ticks " + table)
        .uid("lance-periodic-cleanup-ticks" + suffix)
        .setParallelism(1)
        .keyBy(new Keys.Single<>(), Types.INT)
        .process(new TriggerCleanup(spec, triggerUid), TypeInformation.of(CleanupResult.class))
        .name("lance periodic cleanup " + table)
        .uid(triggerUid)
        .setParallelism(1);
  }

  private static Duration positive(String name, Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive: " + value);
    }
    return value;
  }
}
