package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.engine.SweepResume;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.ledger.ExpiryRecords;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.local.InProcessReadAhead;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Spark engine: the stages of {@link CleanupRun}, spread over the executors ({@code SparkRun}
 * is its distribution).
 *
 * <p>On the driver: the plan (listing {@code _versions/} and refs, one small location per version),
 * the reduced {@link MarkSummary}, both gates, and the counters, one record reduced from the tasks. On executors: decoding manifests (one slice per task), listing the managed
 * directories, co-grouping listed files with marks by reference key, deciding, and deleting in
 * batches. The driver never holds a list of paths: a dry run's files stream through {@link
 * #toDataset()} or {@code toLocalIterator}. Executors receive the broadcast {@link
 * TableStorageFactory} (a copy of the Hadoop configuration) and small records, never a live client.
 *
 * <p>Expired manifests are deleted last, and only when every other delete succeeded and none was
 * deferred by {@code max_deletes} ({@link CleanupRun#releasesExpiredManifests}); the cap is spent
 * through per-partition quotas ({@link PartitionQuotas}).
 */
public final class SparkCleanupAction extends BaseCleanupAction<SparkCleanupAction> {
  private static final Logger LOG = LoggerFactory.getLogger(SparkCleanupAction.class);
  /**
   * The session setting for {@link #distributeAbove}, for SQL users: the default of the session's
   * runs, which {@code distribute_above => N} overrides for a call. A table of at most that many
   * versions is cleaned in the driver by the local engine (threads instead of tasks, spill on the
   * driver's disk; {@link DistributeAbove}), a bigger one as Spark jobs; dry runs as rows ({@link
   * #toDataset}) and runs listing from a view are always distributed.
   */
  public static final String DISTRIBUTE_ABOVE_CONF = "spark.lance.cleanup.distributeAbove";
  /** {@code false} lifts the retention guard of delete_unverified for the session ({@link #allowShortRetention}). */
  public static final String RETENTION_CHECK_CONF = "spark.lance.cleanup.retentionCheck";

  private final SparkSession spark;
  private final TableStorageFactory storageFactory;
  /** Set by the caller; otherwise chosen per run from the plan. */
  private OptionalInt partitions = OptionalInt.empty();
  private int sliceSize = CleanupPlanner.DEFAULT_SLICE_SIZE;
  private boolean listening;
  /** The view of file paths the run lists from ({@link #fileListView}), null to list the store. */
  private FileListView fileListView;

  public SparkCleanupAction(
      SparkSession spark, TableLocation table, TableStorageFactory storageFactory, Clock clock) {
    super(table, storageFactory, clock, "spark");
    this.spark = spark;
    this.storageFactory = storageFactory;
    super.distributeAbove(sessionDistributeAbove(spark));
    super.allowShortRetention(sessionAllowsShortRetention(spark));
  }

  /** The session's {@value #DISTRIBUTE_ABOVE_CONF}, else {@value DistributeAbove#DEFAULT}. */
  static int sessionDistributeAbove(SparkSession spark) {
    return DistributeAbove.parse(
        spark.conf().get(DISTRIBUTE_ABOVE_CONF, Integer.toString(DistributeAbove.DEFAULT)), DISTRIBUTE_ABOVE_CONF);
  }

  /** Whether the session lifts the retention guard ({@value #RETENTION_CHECK_CONF} {@code = false}). */
  static boolean sessionAllowsShortRetention(SparkSession spark) {
    // As Delta's spark.databricks.delta.retentionDurationCheck.enabled: the session may lift the guard.
    String retentionCheck = spark.conf().get(RETENTION_CHECK_CONF, "true");
    if (!retentionCheck.equalsIgnoreCase("true") && !retentionCheck.equalsIgnoreCase("false")) {
      throw new IllegalArgumentException(RETENTION_CHECK_CONF + " takes true or false, not '" + retentionCheck + "'");
    }
    return retentionCheck.equalsIgnoreCase("false");
  }

  /**
   * Partitions of the co-group of listed files and marks by key. By default one per mark task
   * (slice of manifests), and at least the context's default parallelism: the work grows with the
   * versions of the table, and a fixed count such as spark.sql.shuffle.partitions (200) costs a
   * small table seconds of empty tasks.
   */
  public SparkCleanupAction partitions(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("partitions must be > 0: " + count);
    }
    this.partitions = OptionalInt.of(count);
    return this;
  }

  /**
   * List the table from a view of file paths instead of the store ({@code file_list_view}, as
   * Iceberg's {@code remove_orphan_files}): any view or table with the columns {@code path}
   * (absolute paths or URIs, as the table's), {@code size} and {@code last_modified} (a TIMESTAMP).
   * The executors read its rows; the newest {@code last_modified} among the table's rows stands for
   * when it was taken, and the inventory's rules apply (docs/cleanup-semantics.md, section 16): only
   * listed files go, nothing newer than it does ({@link FileListView}). The run is always
   * distributed (a view is read by Spark, not by the driver's local engine).
   */
  public SparkCleanupAction fileListView(String view) {
    this.fileListView = new FileListView(spark, view, table());
    return this;
  }

  /** Manifests decoded per mark task (default {@value CleanupPlanner#DEFAULT_SLICE_SIZE}). */
  public SparkCleanupAction sliceSize(int manifests) {
    if (manifests < 1) {
      throw new IllegalArgumentException("slice size must be > 0: " + manifests);
    }
    this.sliceSize = manifests;
    return this;
  }

  /**
   * Receives every file the run removes, or would remove in a dry run. The files stream to the
   * driver one at a time ({@code toLocalIterator}), which costs one more pass over the decision.
   */
  @Override
  public SparkCleanupAction onRemovedFile(Consumer<CandidateFile> listener) {
    super.onRemovedFile(listener);
    this.listening = true;
    return this;
  }

  @Override
  protected CleanupResult cleanDataset(DatasetCleanup cleanup) {
    long startNanos = System.nanoTime();
    // The ledger is read and folded on the driver beside the plan's listing of _versions/, as the
    // local engine does (LedgerReadAhead says why that is exact); a read still under way ends
    // before the storage it reads through closes. Where the dataset has a key snapshot, the
    // snapshot is read instead (unless distribute_above is 0: every run is distributed), as the
    // local engine's daily run reads it: a run in the driver decides from it and reads none of the
    // ledger to mark (docs/ledger.md, section 12). Whether the run goes to the driver is known only
    // from the plan and the snapshot: a table of at most distribute_above versions, or a daily run
    // with at most that many new since the snapshot. A run distributed after all reads the ledger
    // after the plan, from the listing taken ahead, which is as exact, and on an object store
    // leaves unused the few new manifests read early (at most 64); its jobs leave the snapshot of
    // the versions they keep, for the next daily run. With listing => 'auto' on an object store a
    // run in the driver may examine names instead of listing, as the local engine's: the record of
    // the last listing is read ahead with the snapshot, and the choice made beside the plan
    // (ListingChoice); a run distributed after all lists.
    try (TableStorage storage = storageFactory.open(table());
        InProcessReadAhead ahead = InProcessReadAhead.start(storage, cleanup, markMode(), clock(), mayCleanInProcess(),
            fileListView == null && mayExamineNamesInProcess(storage, cleanup), putMargin())) {
      // One listing of _versions/ both decides where the run goes and plans it.
      CleanupPlan plan = plan(storage, cleanup, ahead.readsEarly());
      Optional<String> inDriver = fileListView == null
          ? cleanedInProcessBecause(plan, () -> ahead.versionsToDecode(plan))
          : Optional.empty();
      if (inDriver.isPresent()) {
        LOG.info("lance cleanup {}: {}: cleaning in the driver", table(), inDriver.get());
        return ahead.clean(inProcess(cleanup, plan));
      }
      return distributed(cleanup, plan, storage, ahead.ledger(), startNanos);
    }
  }

  private CleanupResult distributed(
      DatasetCleanup cleanup, CleanupPlan plan, TableStorage storage, LedgerReadAhead ledger, long startNanos) {
    try (JobGroup group = newJobGroup()) {
      SweepResume resume = sweepResume(storage, cleanup.dataset());
      try (SparkRun run = new SparkRun(
          group, ledger, recordedFiles(cleanup.dataset()).orElse(null), resume.decidedFiles().orElse(null))) {
        CleanupRun stages = new CleanupRun(table().toString(), plan, run, settings().maxDeletes(), progress(), resume);
        CleanupCounters counters = stages.execute();
        long durationMillis = (System.nanoTime() - startNanos) / 1_000_000L;
        return stages.result(settings().mode(), markMode(), counters, durationMillis);
      }
    } catch (Exception e) {
      throw stageError(e);
    }
  }

  /**
   * The error a stage threw, out of the layers Spark wraps a task's failure in ("Job aborted due to
   * stage failure" and a remote stack trace), so that a corrupt manifest read on an executor fails
   * with the same one-line error as on the driver. Anything else is rethrown as it came.
   */
  private RuntimeException stageError(Exception failure) {
    Optional<MaintenanceException> stage = MaintenanceException.in(failure);
    if (stage.isPresent()) {
      return stage.get();
    }
    return failure instanceof RuntimeException runtime
        ? runtime
        : new MaintenanceException("Cannot clean up " + table() + ": the Spark job failed (" + failure + ")", failure);
  }

  /**
   * The run as rows: in a dry run, one row per file that would go ({@code path, kind, bytes,
   * reason}), computed on the executors as the Dataset is read, so it is never truncated and never
   * collected; otherwise the run executes now and the Dataset holds its one counters row.
   */
  public Dataset<Row> toDataset() {
    if (settings().mode() == CleanupMode.EXECUTE) {
      return ResultRows.countersDataset(spark, execute());
    }
    JavaRDD<Row> rows = filesToRemove().map(ResultRows::fileRow);
    return spark.createDataFrame(rows, ResultRows.FILE_SCHEMA);
  }

  /**
   * The files a dry run reports, decided files first and expired manifests last, as a lazy RDD.
   * Plan, mark and both gates run now; the cached marks and decision are released by Spark's
   * context cleaner once the RDD is no longer referenced.
   */
  public JavaRDD<CandidateFile> filesToRemove() {
    try (JobGroup group = newJobGroup()) {
      CleanupPlan plan;
      try (TableStorage storage = storageFactory.open(table())) {
        plan = plan(storage, requestedCleanup(), listed -> {});
      }
      SparkRun run = new SparkRun(group, LedgerReadAhead.none(), null, null);
      try {
        new CleanupRun(table().toString(), plan, run, settings().maxDeletes(), progress()).decide();
      } catch (RuntimeException e) {
        run.close();
        throw e;
      }
      return run.candidates.union(run.expiredManifests);
    } catch (Exception e) {
      throw stageError(e);
    }
  }

  /** Stage {@code plan}, on the driver; it starts no Spark job but the view's newest time when listing from one. */
  private CleanupPlan plan(TableStorage storage, DatasetCleanup cleanup, Consumer<FileEntry> listingSeenBy) {
    CleanupPlanner planner = new CleanupPlanner(sliceSize).listingSeenBy(listingSeenBy);
    return fileListView == null
        ? CleanupRun.plan(storage, planner, cleanup)
        : fileListView.plan(storage, planner, cleanup);
  }

  private JobGroup newJobGroup() {
    String id = "lance-cleanup-" + Integer.toHexString(table().hashCode()) + "-" + clock().millis();
    return new JobGroup(spark.sparkContext(), id, "lance cleanup " + table());
  }

  /**
   * The stages of one run as Spark jobs: mark one slice per task; list one directory per task into
   * a co-group with the marks by reference key, decided per partition; sweep in at most {@code
   * max_concurrent_deletes} tasks. The driver holds the plan and the reductions, never the paths.
   */
  private final class SparkRun implements CleanupRun.Distribution, AutoCloseable {
    private final JobGroup group;
    /** The ledger the driver started reading before the plan, or {@link LedgerReadAhead#none()}. */
    private final LedgerReadAhead ledger;
    private final JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    private final Broadcast<TableStorageFactory> factory = jsc.broadcast(storageFactory);
    private JavaRDD<SliceMarks> marked;
    private JavaRDD<FileEntry> files;
    private JavaRDD<DecideFiles.Decision> decisions;
    private JavaRDD<CandidateFile> candidates;
    private JavaRDD<CandidateFile> expiredManifests;
    private long expiredVersions;
    private int partitions;
    /** Where the sweep tasks record what they delete; null unless {@code record_files}. */
    private final RecordedFiles recordedFiles;
    /** Where the decide tasks record what they decide; null when the run does not record its decision. */
    private final RecordedFiles decidedFiles;

    SparkRun(JobGroup group, LedgerReadAhead ledger, RecordedFiles recordedFiles, RecordedFiles decidedFiles) {
      this.group = group;
      this.ledger = ledger;
      this.recordedFiles = recordedFiles;
      this.decidedFiles = decidedFiles;
    }

    @Override
    public MarkSummary mark(CleanupPlan plan) {
      List<MarkTask> tasks;
      try (TableStorage storage = storageFactory.open(table())) {
        tasks = MarkTasks.of(storage, plan, markMode(), settings().mode(), clock(), new ExecutorDecoder(plan), ledger, mayCleanInProcess());
      }
      long manifests = tasks.stream().mapToLong(MarkTask::manifestsToDecode).sum();
      group.stage(CleanupStage.MARK.label(), String.format("decoding %,d manifests in %,d tasks", manifests, tasks.size()));
      marked = jsc.parallelize(tasks, Math.max(1, tasks.size()))
          .mapPartitions(new MarkSlices(factory, table(), plan.facts()))
          .persist(StorageLevel.MEMORY_AND_DISK());
      expiredManifests = marked.flatMap(SliceMarks::expiredManifestsOf);
      MarkSummary summary = marked.map(SliceMarks::summaryOf).fold(MarkSummary.EMPTY, MarkSummary::plus);
      expiredVersions = summary.expiredVersions();
      return summary;
    }

    /** What the ledger needs decoded, as Spark jobs whose small results come back to the driver. */
    private final class ExecutorDecoder implements MarkTasks.Decoder {
      private final CleanupPlan plan;

      ExecutorDecoder(CleanupPlan plan) {
        this.plan = plan;
      }

      @Override
      public List<RunSummary> summarise(List<ManifestRun> runs) {
        group.stage(CleanupStage.MARK.label(), String.format("summarising %,d new manifests for the ledger in %,d tasks",
            runs.stream().mapToLong(run -> run.manifests().size()).sum(), runs.size()));
        return jsc.parallelize(runs, runs.size()).map(new SummariseRuns(factory, table(), plan.facts().dataset())).collect();
      }

      @Override
      public List<MarkResult> markInFull(List<MarkTask> tasks) {
        group.stage(CleanupStage.MARK.label(), "verify: decoding every manifest");
        return jsc.parallelize(tasks, Math.max(1, tasks.size()))
            .mapPartitions(new MarkSlices(factory, table(), plan.facts()))
            .collect().stream().map(SliceMarks::toResult).toList();
      }
    }

    /** Lazy: the listing runs inside the decision's job, straight into its shuffle. */
    @Override
    public OptionalLong list(CleanupPlan plan) {
      files = fileListView != null
          ? fileListView.files(plan.facts().dataset())
          : jsc.parallelize(plan.listings(), plan.listings().size()).flatMap(new ListFiles(factory, table()));
      return OptionalLong.empty();
    }

    @Override
    public UnlistedReferences decide(CleanupPlan plan, DecisionContext context) {
      partitions = SparkCleanupAction.this.partitions.orElse(Math.max(jsc.defaultParallelism(), plan.slices().size()));
      JavaPairRDD<String, MarkState> marks =
          marked.flatMapToPair(SliceMarks::keyedStates).reduceByKey(MarkState::merge, partitions);
      group.stage(
          CleanupStage.LIST.through(CleanupStage.DECIDE),
          String.format("listing %d directories, deciding in %,d partitions", plan.listings().size(), partitions));
      // Persisted: the referenced-files gate and the sweep (or count) both read the decision, and
      // the listing must run once.
      decisions = files.mapToPair(file -> DecideFiles.keyed(context, file))
          .cogroup(marks, partitions)
          .mapPartitions(new DecideFiles(context, factory, table(), decidedFiles))
          .persist(StorageLevel.MEMORY_AND_DISK());
      candidates = decisions.filter(DecideFiles.Decision::isCandidate).map(DecideFiles.Decision::candidate);
      return decisions.filter(decision -> !decision.isCandidate())
          .map(DecideFiles.Decision::unlisted)
          .fold(UnlistedReferences.NONE, UnlistedReferences::plus);
    }

    @Override
    public int decideTasks() {
      return partitions;
    }

    @Override
    public CleanupCounters sweepDecided(long budget) {
      return remove(candidates, budget, CleanupStage.SWEEP, String.format("what %,d partitions decided", partitions));
    }

    @Override
    public CleanupCounters sweepExpiredManifests(long budget) {
      return remove(expiredManifests, budget, CleanupStage.RELEASE,
          String.format("the manifests of %,d expired versions", expiredVersions));
    }

    /** Removes at most {@code budget} of {@code files} and counts the rest as deferred. */
    private CleanupCounters remove(JavaRDD<CandidateFile> files, long budget, CleanupStage stage, String what) {
      if (budget == CleanupSettings.NO_CAP) {
        return remove(files, stage, what);
      }
      group.stage(stage.label(), "counting " + what + " against max_deletes " + budget);
      PartitionQuotas capped = PartitionQuotas.of(files, budget);
      return remove(capped.within(), stage, what).deferred(capped.deferred());
    }

    /** Deletes {@code files}, or in a dry run counts them (on the executors, or as they stream to a listener). */
    private CleanupCounters remove(JavaRDD<CandidateFile> files, CleanupStage stage, String what) {
      if (settings().mode() == CleanupMode.DRY_RUN) {
        group.stage(stage.label(), "counting " + what + " (dry run)");
        if (!listening) {
          return files.aggregate(CleanupCounters.ZERO, CleanupCounters::record, CleanupCounters::plus);
        }
        CleanupCounters counters = CleanupCounters.ZERO;
        for (Iterator<CandidateFile> each = files.toLocalIterator(); each.hasNext(); ) {
          CandidateFile file = each.next();
          removedFileListener().accept(file);
          counters = counters.record(file);
        }
        return counters;
      }
      int tasks = Math.min(partitions, settings().maxConcurrentDeletes());
      group.stage(stage.label(), "deleting " + what + " in " + tasks + " tasks");
      if (listening) {
        files.toLocalIterator().forEachRemaining(removedFileListener());
      }
      ensureLeaseHeld();
      double perTask = settings().deleteRateLimit() / (double) tasks;
      return files
          .coalesce(tasks)
          .mapPartitions(new SweepPartition(factory, table(), perTask, recordedFiles, stage))
          .fold(CleanupCounters.ZERO, CleanupCounters::plus);
    }

    /** On the driver: the records are few files, named by the reduced mark summary. */
    @Override
    public void retireExpiryRecords(CleanupPlan plan, Set<String> records) {
      ExpiryRecords.retireUsed(settings().mode(), SparkCleanupAction.this::ensureLeaseHeld, storageFactory, table(),
          plan.facts().dataset(), records);
    }

    @Override
    public void close() {
      if (decisions != null) {
        decisions.unpersist(false);
      }
      if (marked != null) {
        marked.unpersist(false);
      }
    }
  }
}
