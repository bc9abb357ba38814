package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetCleanup;
import dev.lancemaintenance.fleet.FleetDescribe;
import dev.lancemaintenance.fleet.FleetOptimize;
import dev.lancemaintenance.fleet.FleetRun;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.fleet.TableTask;
import dev.lancemaintenance.flink.maintenance.operator.FleetJob;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.tags.TableTags;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
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
   * {@code cleanup_all}: the cleanup of every table under {@code rootUri} whose directory name
   * matches {@code pattern} ({@link DirectoryNamespace#DEFAULT_PATTERN} for a Lance directory
   * namespace), each as {@link #cleanup} on it alone with {@code options} and one "now". Tables of
   * at most {@code distribute_above} versions (the option's, else {@code env}'s {@value
   * DistributeAbove#FLINK_SETTING}, else {@value DistributeAbove#DEFAULT}) run in one Flink job, a
   * subtask each; larger ones afterwards in their own cleanup jobs. One outcome per table, in the tables'
   * order; a table that fails or is refused is reported in its outcome and the others go on.
   *
   * @param storageOptions Hadoop configuration entries for the store; may hold secrets
   */
  public static List<TableOutcome> cleanupAll(
      StreamExecutionEnvironment env, String rootUri, String pattern, Map<CleanupOption, ?> options,
      Map<String, String> storageOptions, Clock clock) throws Exception {
    TableLocation root = TableLocation.of(rootUri);
    int configured = FlinkCleanupAction.configuredDistributeAbove(env).orElse(DistributeAbove.DEFAULT);
    FleetCleanup fleet = FleetCleanup.of(root, HadoopTableStorage.factory(StorageConf.of(storageOptions)), options, clock.instant());
    return fleet(env, root, pattern, fleet, fleet.runOnWorkerUpTo(configured),
        fleet.using(t -> cleanup(env, t.uri(), storageOptions)));
  }

  /**
   * {@code describe_storage_all}: the storage report of every table under {@code rootUri} whose
   * directory name matches {@code pattern}, each as {@link #describeStorage} on it alone under
   * {@code policy} (no run settings) and one "now", in one outcome of totals per table
   * ({@link StorageReport#totals()}). Small tables in one Flink job, larger ones in their own report
   * jobs; a table that fails is reported in its outcome and the others go on. Deletes nothing.
   *
   * @param storageOptions Hadoop configuration entries for the store; may hold secrets
   */
  public static List<TableOutcome> describeStorageAll(
      StreamExecutionEnvironment env, String rootUri, String pattern, Map<CleanupOption, ?> policy,
      Map<String, String> storageOptions, Clock clock) throws Exception {
    TableLocation root = TableLocation.of(rootUri);
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.of(storageOptions));
    FleetDescribe fleet = FleetDescribe.of(root, storage, policy, clock.instant());
    return fleet(env, root, pattern, fleet, FleetRun.RUN_ON_WORKER_UP_TO,
        fleet.using((table, request) -> new FlinkStorageReport(env, table, storage).report(request)));
  }

  /**
   * {@code optimize_all}: {@link #optimize} of every table under {@code rootUri} whose directory
   * name matches {@code pattern}, each exactly as optimize on it alone with {@code options} (of
   * {@link OptimizeAction#OPTIONS}; a window is measured from when each table's cleanup starts,
   * after its compaction). Tables of at most {@link FleetRun#RUN_ON_WORKER_UP_TO} versions run in
   * one Flink job, a subtask each (compaction and cleanup on the subtask's threads); larger ones
   * afterwards as their own compaction and cleanup jobs. One outcome per table ({@code
   * OptimizeResult.namedCounters()}), in the tables' order; a table that fails or is refused is
   * reported in its outcome and the others go on.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options, for the compactions; may hold secrets
   * @param hadoopOptions Hadoop configuration entries for the store; may hold secrets
   */
  public static List<TableOutcome> optimizeAll(
      StreamExecutionEnvironment env, String rootUri, String pattern, Map<? extends MaintenanceOption, ?> options,
      Map<String, String> sdkStorageOptions, Map<String, String> hadoopOptions, Clock clock) throws Exception {
    TableLocation root = TableLocation.of(rootUri);
    FleetOptimize fleet = FleetOptimize.of(
        root, HadoopTableStorage.factory(StorageConf.of(hadoopOptions)), sdkStorageOptions, options, clock);
    return fleet(env, root, pattern, fleet, FleetRun.RUN_ON_WORKER_UP_TO,
        fleet.using(t -> optimize(env, t.uri(), sdkStorageOptions, hadoopOptions)));
  }

  /**
   * A fleet call: the tables of at most {@code runOnWorkerUpTo} versions in one job ({@link
   * FleetJob}), each larger one through {@code distributed} afterwards; one outcome per table, in
   * the tables' order.
   */
  private static List<TableOutcome> fleet(StreamExecutionEnvironment env, TableLocation root, String pattern, FleetRun fleet,
      long runOnWorkerUpTo, TableTask distributed) throws Exception {
    List<TableLocation> tables = fleet.tables(root, pattern);
    Map<String, TableOutcome> byTable = new HashMap<>();
    for (TableOutcome outcome : FleetJob.run(env, root.toString(), fleet, tables, runOnWorkerUpTo)) {
      byTable.put(outcome.table(), outcome);
    }
    List<TableOutcome> outcomes = new ArrayList<>();
    for (TableLocation table : tables) {
      TableOutcome outcome = byTable.get(table.toString());
      outcomes.add(outcome.status() == TableStatus.DEFERRED ? fleet.through(table, distributed) : outcome);
    }
    return outcomes;
  }

  /**
   * The storage report of {@code tableUri} ({@code describe_storage}) as Flink jobs: what its files
   * are for, what a cleanup with {@code policy} would free now and with each of {@code windows} as
   * {@code older_than}. Deletes nothing.
   *
   * @param policy the cleanup's policy options (no run settings: {@link CleanupOption#policyOptions()})
   * @param storageOptions Hadoop configuration entries for the table's store; may hold secrets
   */
  public static StorageReport describeStorage(
      StreamExecutionEnvironment env, String tableUri, Map<CleanupOption, ?> policy, List<Duration> windows,
      Map<String, String> storageOptions, Clock clock) {
    CleanupOption.requirePolicyOnly("describe_storage", policy.keySet());
    TableLocation table = TableLocation.of(tableUri);
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.of(storageOptions));
    FlinkCleanupAction cleanup = CleanupOption.applyTo(new FlinkCleanupAction(env, table, storage, clock), policy, clock.instant());
    return new FlinkStorageReport(env, table, storage).windows(windows).report(cleanup.request());
  }

  /**
   * The table's tags, to read, create, move or delete ({@link TableTags}); {@code work} runs in this
   * client while the table's storage is open.
   *
   * @param storageOptions Hadoop configuration entries for the table's store; may hold secrets
   */
  public static <T> T tags(
      String tableUri, Map<String, String> storageOptions, Clock clock, Function<TableTags, T> work) {
    try (TableStorage storage =
        HadoopTableStorage.factory(StorageConf.of(storageOptions)).open(TableLocation.of(tableUri))) {
      return work.apply(TableTags.of(storage, clock));
    }
  }

  /**
   * The table's maintenance history from its run records ({@link RunRecords}), newest first, at most
   * {@code limit} runs; read in this client.
   *
   * @param storageOptions Hadoop configuration entries for the table's store; may hold secrets
   */
  public static List<RunEntry> history(String tableUri, Map<String, String> storageOptions, Clock clock, int limit) {
    try (TableStorage storage =
        HadoopTableStorage.factory(StorageConf.of(storageOptions)).open(TableLocation.of(tableUri))) {
      return new RunRecords(storage).history(limit, clock);
    }
  }

  /**
   * A compaction of {@code tableUri} on {@code env}.
   *
   * @param sdkStorageOptions the Lance SDK's object-store options (e.g. {@code aws_region}); may hold secrets
   */
  public static CompactAction compact(
      StreamExecutionEnvironment env, String tableUri, Map<String, String> sdkStorageOptions) {
    CompactionTable table = CompactionTable.of(TableLocation.of(tableUri), sdkStorageOptions);
    return new EngineCompactAction(table, new FlinkCompactionEngine(env));
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

  /**
   * {@code remove_orphan_files} of {@code tableUri} on {@code env}: the cleanup job with the
   * orphan-sweep policy ({@link FlinkCleanupAction#orphanFilesOnly()}): no version expires, and
   * files no version references that are older than {@code olderThan} (default 7 days) go.
   *
   * @param storageOptions Hadoop configuration entries for the table's store; may hold secrets
   */
  public static FlinkCleanupAction removeOrphanFiles(
      StreamExecutionEnvironment env, String tableUri, Map<String, String> storageOptions) {
    return cleanup(env, tableUri, storageOptions).orphanFilesOnly();
  }

  /**
   * {@code expire_versions} of {@code tableUri}: the manifests of the versions the policy expires,
   * removed in this process (the client) without reading the retained ones; a later cleanup with the
   * same policy removes their files.
   */
  public static ExpireVersionsAction expireVersions(String tableUri, Map<String, String> storageOptions, Clock clock) {
    return new ExpireVersionsAction(
        TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(storageOptions)), clock);
  }
}
