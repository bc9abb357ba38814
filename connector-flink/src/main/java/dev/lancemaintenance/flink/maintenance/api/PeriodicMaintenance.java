package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.CompactionPolicy;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.flink.maintenance.operator.Keys;
import dev.lancemaintenance.flink.maintenance.operator.PeriodicSpec;
import dev.lancemaintenance.flink.maintenance.operator.PeriodicTask;
import dev.lancemaintenance.flink.maintenance.operator.Ticks;
import dev.lancemaintenance.flink.maintenance.operator.TriggerMaintenance;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Periodic maintenance a streaming job attaches beside its writer: cleanup, compaction or optimize
 * (compaction, then cleanup), each run when any of its triggers fires, as Iceberg's Flink
 * {@code TableMaintenance} does:
 *
 * <pre>{@code
 * DataStream<CleanupResult> cleanups = PeriodicMaintenance.cleanup("s3a://bucket/t.lance")
 *     .every(Duration.ofMinutes(30))
 *     .everyNewVersions(100)
 *     .olderThan(Duration.ofHours(6))
 *     .append(env);
 * DataStream<OptimizeResult> optimizes = PeriodicMaintenance.optimize("s3a://bucket/t.lance")
 *     .whenFragmentsToCompact(50)
 *     .every(Duration.ofHours(6))
 *     .append(env);
 * }</pre>
 *
 * <p>A tick source (one tick per {@link #checkEvery}) drives a parallelism-1 operator that runs the
 * task when due, holding the table's lease so no two runs (from this job, another job or another
 * engine) overlap; see {@link TriggerMaintenance}. Results stream out; metrics are under {@code
 * lance_maintenance}. Enable checkpointing so the schedule survives restarts. Compaction and
 * optimize rewrite through the Lance SDK, which the task managers then need.
 *
 * @param <R> what each run emits: {@link CleanupResult}, {@link CompactResult} or {@link OptimizeResult}
 */
public final class PeriodicMaintenance<R> {
  private final String tableUri;
  private final PeriodicTask<R> task;
  private Map<String, String> storageOptions = Map.of();
  private Map<String, String> sdkStorageOptions = Map.of();
  private Duration interval = Duration.ZERO;
  private long newVersions;
  private long fragmentsToCompact;
  private Duration olderThan = CleanupPolicy.DEFAULT_OLDER_THAN;
  private CompactionPolicy compaction = CompactionPolicy.DEFAULT;
  private Map<String, String> options = Map.of();
  private Duration checkEvery = Duration.ofMinutes(1);
  private Duration lease = Duration.ofHours(1);
  private String uidSuffix = "";

  private PeriodicMaintenance(String tableUri, PeriodicTask<R> task) {
    this.tableUri = Objects.requireNonNull(tableUri, "tableUri");
    this.task = task;
  }

  public static PeriodicMaintenance<CleanupResult> cleanup(String tableUri) {
    return new PeriodicMaintenance<>(tableUri, PeriodicTask.cleanup());
  }

  /** Periodic compaction: merges small fragments into a new version; deletes nothing. */
  public static PeriodicMaintenance<CompactResult> compact(String tableUri) {
    return new PeriodicMaintenance<>(tableUri, PeriodicTask.compaction());
  }

  /** Periodic optimize: compaction, then a cleanup whose window starts after compacting. */
  public static PeriodicMaintenance<OptimizeResult> optimize(String tableUri) {
    return new PeriodicMaintenance<>(tableUri, PeriodicTask.optimize());
  }

  /** Hadoop configuration entries for the table's store; may hold secrets. */
  public PeriodicMaintenance<R> storageOptions(Map<String, String> options) {
    this.storageOptions = Map.copyOf(options);
    return this;
  }

  /** The Lance SDK's object-store options (e.g. {@code aws_region}), for compaction; may hold secrets. */
  public PeriodicMaintenance<R> sdkStorageOptions(Map<String, String> options) {
    this.sdkStorageOptions = Map.copyOf(options);
    return this;
  }

  /**
   * Run when Lance's compaction planner would merge at least this many fragments (checked every
   * {@link #checkEvery}, which plans a compaction each time: a read of the latest manifest).
   */
  public PeriodicMaintenance<R> whenFragmentsToCompact(long fragments) {
    if (fragments < 1) {
      throw new IllegalArgumentException("whenFragmentsToCompact must be > 0: " + fragments);
    }
    this.fragmentsToCompact = fragments;
    return this;
  }

  /** How compaction merges fragments (also what the fragment trigger plans with). */
  public PeriodicMaintenance<R> compaction(CompactionPolicy policy) {
    this.compaction = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * Options of each run by SQL name, as the SQL procedures take them: the cleanup options for
   * {@link #cleanup}, the compaction options for {@link #compact}, both for {@link #optimize} (see
   * {@code CleanupOption}, {@code CompactionOption}, {@code OptimizeAction.OPTIONS}). Checked here:
   * an unknown, repeated or malformed name, or a NULL for an option that decides what is deleted, is
   * an error naming it, before the job is built. They are applied after {@link #olderThan} and
   * {@link #compaction}, so an {@code older_than} here wins.
   */
  public PeriodicMaintenance<R> options(Map<String, String> values) {
    task.catalogue().parseAll(values);
    this.options = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    return this;
  }

  /** Run when this much processing time passed since the last run. */
  public PeriodicMaintenance<R> every(Duration value) {
    this.interval = positive("every", value);
    return this;
  }

  /** Run when this many versions were committed since the last run. */
  public PeriodicMaintenance<R> everyNewVersions(long versions) {
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
  public PeriodicMaintenance<R> olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    this.olderThan = value;
    return this;
  }

  /** How often to check whether a run is due (and list the table's versions to do so). */
  public PeriodicMaintenance<R> checkEvery(Duration value) {
    this.checkEvery = positive("checkEvery", value);
    return this;
  }

  /** How long a run may hold the table's lock; a holder that dies frees it after this. */
  public PeriodicMaintenance<R> lease(Duration value) {
    this.lease = positive("lease", value);
    return this;
  }

  /** Appended to the operators' uids, for jobs that maintain several tables. */
  public PeriodicMaintenance<R> uidSuffix(String suffix) {
    this.uidSuffix = Objects.requireNonNull(suffix, "suffix");
    return this;
  }

  /** Adds the ticks and the trigger to {@code env}; returns the stream of run results. */
  public DataStream<R> append(StreamExecutionEnvironment env) {
    TableLocation table = TableLocation.of(tableUri);
    // Cleanup options ship as text, compaction options inside the policy they make.
    Map<String, String> cleanupOptions = new HashMap<>();
    options.forEach((name, text) -> {
      if (text != null && task.catalogue().named(name, List.of()) instanceof CleanupOption) {
        cleanupOptions.put(name, text);
      }
    });
    Map<MaintenanceOption, Object> values = task.catalogue().parseAll(options);
    PeriodicSpec spec = new PeriodicSpec(table, StorageConf.of(storageOptions), sdkStorageOptions, interval,
        newVersions, fragmentsToCompact, olderThan, cleanupOptions,
        CompactionOption.applyTo(compaction, OptionCatalogue.only(CompactionOption.class, values)), lease);
    DataGeneratorSource<Long> ticks =
        new DataGeneratorSource<>(
            new Ticks(), Long.MAX_VALUE, RateLimiterStrategy.perSecond(1000.0 / checkEvery.toMillis()), Types.LONG);
    String suffix = uidSuffix.isEmpty() ? "" : "-" + uidSuffix;
    // Cleanup keeps the uids it always had, so that jobs restore their schedules from old savepoints.
    String triggerUid = "lance-periodic-" + task.name() + suffix;
    return env.fromSource(ticks, WatermarkStrategy.noWatermarks(), "lance maintenance ticks " + table)
        .uid("lance-periodic-" + task.name() + "-ticks" + suffix)
        .setParallelism(1)
        .keyBy(new Keys.Single<>(), Types.INT)
        .process(new TriggerMaintenance<>(spec, task, triggerUid), task.resultType())
        .name("lance periodic " + task.name() + " " + table)
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
