package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.fleet.DirectoryNamespace;
import dev.lancemaintenance.fleet.FleetCleanup;
import dev.lancemaintenance.fleet.FleetDescribe;
import dev.lancemaintenance.fleet.FleetOptimize;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.report.ReportWindows;
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
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The notebook entry point (Scala, Java, and PySpark through {@code python/lance_maintenance.py}):
 *
 * <pre>{@code
 * CleanupResult result = LanceMaintenance.of(spark)
 *     .cleanup("s3a://bucket/events.lance")
 *     .olderThan(Duration.ofDays(7))
 *     .dryRun(true)
 *     .execute();
 * }</pre>
 *
 * Compaction and optimize (compaction, then this cleanup) go the same way:
 *
 * <pre>{@code
 * CompactResult compacted = LanceMaintenance.of(spark).compact(uri).targetRowsPerFragment(1 << 20).execute();
 * OptimizeResult optimized = LanceMaintenance.of(spark).optimize(uri).olderThan(Duration.ofDays(7)).execute();
 * }</pre>
 *
 * Compaction rewrites data with the Lance SDK, which must be on the driver's and executors'
 * classpath ({@code --packages org.lance:lance-core:<version>}); cleanup needs no SDK.
 *
 * <p>Needs no SQL extension or catalog configuration. The table's store is opened with the session's
 * Hadoop configuration (everything set as {@code spark.hadoop.*}), so s3a endpoints and credentials
 * work as for any Spark read.
 */
public final class LanceMaintenance {
  private final SparkSession spark;
  private final Clock clock;

  private LanceMaintenance(SparkSession spark, Clock clock) {
    this.spark = Objects.requireNonNull(spark, "spark");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  public static LanceMaintenance of(SparkSession spark) {
    return new LanceMaintenance(spark, Clock.systemUTC());
  }

  /** With an injected clock: "now" for {@code older_than} and the 7-day rule comes from it. */
  public static LanceMaintenance of(SparkSession spark, Clock clock) {
    return new LanceMaintenance(spark, clock);
  }

  /** A cleanup of the table at {@code tableUri} ({@code file:}, {@code hdfs:}, {@code s3a:}, ... or a path). */
  public SparkCleanupAction cleanup(String tableUri) {
    return cleanup(tableUri, Map.of());
  }

  /**
   * A cleanup whose store settings are the session's plus {@code hadoopOptions} (Hadoop keys such as
   * {@code fs.s3a.endpoint}; they may hold secrets and are never logged).
   */
  public SparkCleanupAction cleanup(String tableUri, Map<String, String> hadoopOptions) {
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    return new SparkCleanupAction(
        spark, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(conf)), clock);
  }

  /** A compaction of the table at {@code tableUri} (a path, {@code file:}, {@code s3://}, ...). */
  public CompactAction compact(String tableUri) {
    return compact(tableUri, Map.of());
  }

  /**
   * A compaction whose SDK opens the table with {@code sdkStorageOptions}: the Lance SDK's
   * object-store options (such as {@code aws_region}), not Hadoop keys; they may hold secrets.
   */
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions) {
    CompactionTable table = CompactionTable.of(TableLocation.of(tableUri), sdkStorageOptions);
    CompactAction action = new EngineCompactAction(table, new SparkCompactionEngine(spark));
    // The table's lease goes through the session's Hadoop settings, as a cleanup's does.
    action.leaseThrough(
        TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(spark.sessionState().newHadoopConf())));
    return action;
  }

  /** Optimize: the tag pre-flight, a Spark compaction, then a Spark cleanup. */
  public OptimizeAction optimize(String tableUri) {
    return optimize(tableUri, Map.of(), Map.of());
  }

  /**
   * Optimize with the SDK's storage options for the compaction and Hadoop options for the cleanup
   * (over the session's {@code spark.hadoop.*}). Compaction settings go on {@link
   * OptimizeAction#compaction()}.
   */
  public OptimizeAction optimize(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> hadoopOptions) {
    SparkCleanupAction cleanup = cleanup(tableUri, hadoopOptions);
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    return new OptimizeAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(conf)),
            compact(tableUri, sdkStorageOptions), cleanup, clock)
        .allowShortRetention(spark.conf().get(SparkCleanupAction.RETENTION_CHECK_CONF, "true").equalsIgnoreCase("false"));
  }

  /**
   * {@code cleanup_all}: the cleanup of every table under {@code rootUri} whose directory name
   * matches {@code pattern} (a glob, {@value DirectoryNamespace#DEFAULT_PATTERN} for a Lance
   * directory namespace), each exactly as {@link #cleanup} on it alone with {@code cleanupOptions}
   * (the catalogue's names: {@code older_than}, {@code dry_run}, ...) and the same "now". Small
   * tables run in one Spark job, a task each; a table above the call's {@code distribute_above}
   * (else the session's {@value SparkCleanupAction#DISTRIBUTE_ABOVE_CONF}) versions on its own
   * distributed stages. One row per
   * table ({@link ResultRows#FLEET_CLEANUP_SCHEMA}: table, status, the counters, error); a table that
   * fails or is refused is reported in its row and the others go on.
   *
   * @param hadoopOptions Hadoop settings for the store, over the session's; may hold secrets
   */
  public Dataset<Row> cleanupAll(String rootUri, String pattern, Map<String, String> cleanupOptions, Map<String, String> hadoopOptions) {
    return ResultRows.fleetDataset(spark, ResultRows.FLEET_CLEANUP_SCHEMA, cleanupAllOutcomes(rootUri, pattern, CleanupOption.parseAll(cleanupOptions), hadoopOptions));
  }

  /** {@link #cleanupAll(String, String, Map, Map)} with options already read, as the SQL procedure has them. */
  public List<TableOutcome> cleanupAllOutcomes(
      String rootUri, String pattern, Map<CleanupOption, Object> options, Map<String, String> hadoopOptions) {
    TableLocation root = TableLocation.of(rootUri);
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    Map<CleanupOption, Object> withSession = new EnumMap<>(CleanupOption.class);
    withSession.putAll(options);
    if (SparkCleanupAction.sessionAllowsShortRetention(spark)) {
      withSession.putIfAbsent(CleanupOption.ALLOW_SHORT_RETENTION, true);
    }
    FleetCleanup fleet = FleetCleanup.of(root, HadoopTableStorage.factory(StorageConf.of(conf)), withSession, clock.instant());
    return SparkFleet.run(spark, root.toString(), fleet, fleet.tables(root, pattern),
        fleet.runOnWorkerUpTo(SparkCleanupAction.sessionDistributeAbove(spark)),
        fleet.using(table -> cleanup(table.uri(), hadoopOptions)));
  }

  /**
   * {@code describe_storage_all}: the storage report of every table under {@code rootUri} whose
   * directory name matches {@code pattern}, under the cleanup policy {@code policyOptions} (the
   * catalogue's names, no run settings) and one "now", each exactly as {@link #describeStorage} on
   * it alone, as one row of totals per table ({@link ResultRows#FLEET_DESCRIBE_SCHEMA}: table,
   * status, versions, files, bytes, what the latest version needs, what the policy frees now, ...,
   * error). Small tables in one Spark job, a large one on its own distributed stages. Deletes nothing.
   *
   * @param hadoopOptions Hadoop settings for the store, over the session's; may hold secrets
   */
  public Dataset<Row> describeStorageAll(
      String rootUri, String pattern, Map<String, String> policyOptions, Map<String, String> hadoopOptions) {
    return ResultRows.fleetDataset(spark, ResultRows.FLEET_DESCRIBE_SCHEMA,
        describeStorageAllOutcomes(rootUri, pattern, CleanupOption.parseAll(policyOptions), hadoopOptions));
  }

  /** {@link #describeStorageAll} with options already read, as the SQL procedure has them. */
  public List<TableOutcome> describeStorageAllOutcomes(
      String rootUri, String pattern, Map<CleanupOption, Object> policy, Map<String, String> hadoopOptions) {
    TableLocation root = TableLocation.of(rootUri);
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.of(conf));
    FleetDescribe fleet = FleetDescribe.of(root, storage, policy, clock.instant());
    return SparkFleet.run(spark, root.toString(), fleet, fleet.tables(root, pattern),
        SparkCleanupAction.sessionDistributeAbove(spark),
        fleet.using((table, request) -> new SparkStorageReport(spark, table, storage, clock).report(request)));
  }

  /**
   * {@code optimize_all}: {@link #optimize} of every table under {@code rootUri} whose directory
   * name matches {@code pattern}, each exactly as optimize on it alone with {@code optimizeOptions}
   * (the names of {@link OptimizeAction#OPTIONS}: {@code older_than}, {@code target_rows_per_fragment},
   * ...; a window is measured from when each table's cleanup starts, after its compaction). Small
   * tables run in one Spark job, a task each (compaction and cleanup on the executor's threads); a
   * table above {@value SparkCleanupAction#DISTRIBUTE_ABOVE_CONF} versions on the distributed
   * compaction and cleanup. One row per table ({@link ResultRows#FLEET_OPTIMIZE_SCHEMA}: table,
   * status, the optimize counters, error); a table that fails or is refused is reported in its row.
   *
   * @param sdkStorageOptions the Lance SDK's storage options for the compactions; may hold secrets
   */
  public Dataset<Row> optimizeAll(
      String rootUri, String pattern, Map<String, String> optimizeOptions, Map<String, String> sdkStorageOptions) {
    return ResultRows.fleetDataset(spark, ResultRows.FLEET_OPTIMIZE_SCHEMA,
        optimizeAllOutcomes(rootUri, pattern, OptimizeAction.OPTIONS.parseAll(optimizeOptions), sdkStorageOptions, Map.of()));
  }

  /**
   * {@link #optimizeAll} with options already read, as the SQL procedure has them, and Hadoop
   * settings for the cleanups' store over the session's.
   */
  public List<TableOutcome> optimizeAllOutcomes(
      String rootUri, String pattern, Map<? extends MaintenanceOption, ?> options, Map<String, String> sdkStorageOptions,
      Map<String, String> hadoopOptions) {
    TableLocation root = TableLocation.of(rootUri);
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    Map<MaintenanceOption, Object> withSession = new LinkedHashMap<>(options);
    if (SparkCleanupAction.sessionAllowsShortRetention(spark)) {
      withSession.putIfAbsent(CleanupOption.ALLOW_SHORT_RETENTION, true);
    }
    FleetOptimize fleet = FleetOptimize.of(
        root, HadoopTableStorage.factory(StorageConf.of(conf)), sdkStorageOptions, withSession, clock);
    return SparkFleet.run(spark, root.toString(), fleet, fleet.tables(root, pattern),
        SparkCleanupAction.sessionDistributeAbove(spark),
        fleet.using(table -> optimize(table.uri(), sdkStorageOptions, hadoopOptions)));
  }

  /**
   * The table's tags, to read, create, move or delete ({@link TableTags}), through the session's
   * Hadoop settings plus {@code hadoopOptions}; {@code work} runs while the table's storage is open.
   */
  public <T> T tags(String tableUri, Map<String, String> hadoopOptions, Function<TableTags, T> work) {
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.of(conf)).open(TableLocation.of(tableUri))) {
      return work.apply(TableTags.of(storage, clock));
    }
  }

  /**
   * The table's maintenance history from its run records ({@link RunRecords}), newest first, at most
   * {@code limit} runs, through the session's Hadoop settings plus {@code hadoopOptions}. Read on
   * the driver: one small file per run.
   */
  public List<RunEntry> history(String tableUri, Map<String, String> hadoopOptions, int limit) {
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.of(conf)).open(TableLocation.of(tableUri))) {
      return new RunRecords(storage).history(limit, clock);
    }
  }

  /**
   * The storage report of the table as a DataFrame (section, name, versions, files, bytes,
   * detail): what its files are for, what a cleanup with the default policy (older_than 7 days)
   * frees now, and what windows of 0 s, 1 h, 1 d, 7 d and 30 d would free. Computed on the executors.
   */
  public Dataset<Row> describeStorage(String tableUri) {
    return describeStorage(tableUri, Map.of());
  }

  /**
   * The same with cleanup policy options by SQL name ({@code older_than}, {@code before_version},
   * ...; the catalogue {@link CleanupOption}, without its run settings), {@code windows} ({@code
   * "0s,1d,7d"}) and {@code file_list_view} (a view of file paths to list the table from).
   */
  public Dataset<Row> describeStorage(String tableUri, Map<String, String> options) {
    return describeStorage(tableUri, options, Map.of());
  }

  /** {@link #describeStorage(String, Map)} with Hadoop settings for the store over the session's; may hold secrets. */
  public Dataset<Row> describeStorage(String tableUri, Map<String, String> options, Map<String, String> hadoopOptions) {
    Map<String, String> policy = new java.util.HashMap<>();
    Optional<String> windows = Optional.empty();
    Optional<String> fileListView = Optional.empty();
    for (Map.Entry<String, String> option : options.entrySet()) {
      if (option.getKey().equalsIgnoreCase("windows")) {
        windows = Optional.of(Objects.requireNonNull(option.getValue(), "windows"));
      } else if (option.getKey().equalsIgnoreCase("file_list_view")) {
        fileListView = Optional.of(Objects.requireNonNull(option.getValue(), "file_list_view"));
      } else {
        policy.put(option.getKey(), option.getValue());
      }
    }
    return ResultRows.storageDataset(spark,
        storageReport(tableUri, CleanupOption.parseAll(policy), windows, hadoopOptions, fileListView));
  }

  /**
   * The storage report of the table as a value, for the policy {@code options} give (catalogue
   * options only; a run setting such as {@code dry_run} is an error, naming it), {@code windows} for
   * the what-if, and the store's Hadoop options over the session's.
   */
  public StorageReport storageReport(
      String tableUri, Map<CleanupOption, Object> options, Optional<String> windows, Map<String, String> hadoopOptions) {
    return storageReport(tableUri, options, windows, hadoopOptions, Optional.empty());
  }

  /**
   * {@link #storageReport(String, Map, Optional, Map)} listed from a view of file paths ({@code
   * file_list_view}), as a cleanup with the same arguments would list.
   */
  public StorageReport storageReport(String tableUri, Map<CleanupOption, Object> options, Optional<String> windows,
      Map<String, String> hadoopOptions, Optional<String> fileListView) {
    CleanupOption.requirePolicyOnly("describe_storage", options.keySet());
    SparkCleanupAction policy = CleanupOption.applyTo(cleanup(tableUri, hadoopOptions), options, clock.instant());
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    SparkStorageReport report =
        new SparkStorageReport(spark, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(conf)), clock)
            .windows(windows.map(ReportWindows::parse).orElse(ReportWindows.DEFAULT_WINDOWS));
    fileListView.ifPresent(report::fileListView);
    return report.report(policy.request());
  }

  /**
   * {@code remove_orphan_files} of the table at {@code tableUri}: no version expires, and the files
   * under its managed directories that no version (nor a branch reading it) references and that were
   * modified more than {@code olderThan} ago (default 7 days) go; a window under 1 day is refused
   * unless {@code allowShortRetention(true)}. The same distributed stages as {@link #cleanup}.
   */
  public SparkCleanupAction removeOrphanFiles(String tableUri) {
    return removeOrphanFiles(tableUri, Map.of());
  }

  /** {@link #removeOrphanFiles(String)} with Hadoop settings for the store over the session's; may hold secrets. */
  public SparkCleanupAction removeOrphanFiles(String tableUri, Map<String, String> hadoopOptions) {
    return cleanup(tableUri, hadoopOptions).orphanFilesOnly();
  }

  /**
   * {@code expire_versions} of the table at {@code tableUri}: removes the manifests of the versions
   * the policy expires without reading the retained ones (on the driver; it reads only the manifests
   * it expires), after recording what only they referenced; a later {@link #cleanup} with the same
   * policy removes their files exactly as one cleanup would have (README, "Expire, then sweep").
   */
  public ExpireVersionsAction expireVersions(String tableUri) {
    return expireVersions(tableUri, Map.of());
  }

  /** {@link #expireVersions(String)} through the session's Hadoop settings plus {@code hadoopOptions}. */
  public ExpireVersionsAction expireVersions(String tableUri, Map<String, String> hadoopOptions) {
    Configuration conf = spark.sessionState().newHadoopConf();
    hadoopOptions.forEach(conf::set);
    return new ExpireVersionsAction(TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(conf)), clock);
  }
}
