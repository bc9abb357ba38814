package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.SweepResume;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.flink.maintenance.operator.CleanupJobSpec;
import dev.lancemaintenance.flink.maintenance.operator.CleanupTopology;
import dev.lancemaintenance.flink.maintenance.operator.FileReport;
import dev.lancemaintenance.flink.maintenance.operator.LedgerJobs;
import dev.lancemaintenance.flink.maintenance.operator.RecordPlan;
import dev.lancemaintenance.flink.maintenance.operator.RunOutput;
import dev.lancemaintenance.ledger.ExpiryRecords;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.local.InProcessReadAhead;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cleanup as a Flink BATCH job, with the fluent API of every engine; a small table in the client.
 *
 * <p>A table of at most {@code distribute_above} versions (default {@value
 * dev.lancemaintenance.cleanup.DistributeAbove#DEFAULT}, or the environment's {@value
 * DistributeAbove#FLINK_SETTING} ({@link #configuredDistributeAbove}); {@link #distributeAbove},
 * {@code distribute_above => N} in {@code CALL sys.cleanup}) is cleaned here, in the client, by the local
 * engine after this action's plan, as Spark cleans it in its driver: a daily incremental run then
 * decides from the last run's key snapshot (docs/ledger.md, section 12) and submits no job. The
 * same files go either way; 0 makes every table a job. What follows is the job.
 *
 * <p>The stages and gates are {@link CleanupRun}'s. Planning runs here, in the client: it lists the table's manifests and refs (no manifest body)
 * and fixes "now" once. With the ledger ({@code mode => 'incremental'}), the client also reads the
 * ledger, has the manifests it cannot answer for summarised by a small job of its own ({@link
 * LedgerJobs}), derives the marks of the dataset's versions and commits the ledger (not in a dry
 * run) before the cleanup job starts. The job then decodes manifest slices and lists the managed directories in
 * parallel subtasks, co-groups marks and files by reference key to decide, sweeps in parallel
 * subtasks (at most {@code max_concurrent_deletes}, each with its share of the rate limit), and
 * deletes expired manifests last, only when no other delete failed; see {@link CleanupTopology}
 * for the ordering argument. Only counters, and the removed files when someone listens for them,
 * come back to the client, as a stream.
 *
 * <p>The tagged-versions check gates the deletes inside the same job: the mark summaries are reduced
 * at parallelism 1, checked, and broadcast as the decision context, which every decide subtask reads
 * before its first file (BATCH mode processes broadcast inputs first). A refusal fails the job
 * before any file is decided, and {@code execute()} rethrows it as the {@link
 * dev.lancemaintenance.cleanup.TaggedVersionsException} the other engines throw.
 *
 * <p>The environment is switched to BATCH execution mode.
 */
public final class FlinkCleanupAction extends BaseCleanupAction<FlinkCleanupAction> {
  private static final Logger LOG = LoggerFactory.getLogger(FlinkCleanupAction.class);

  private final StreamExecutionEnvironment env;
  private final TableStorageFactory storageFactory;
  private int sliceSize = CleanupPlanner.DEFAULT_SLICE_SIZE;
  private String uidSuffix = "";
  private FileReport report = FileReport.COUNT_ONLY;

  /**
   * Flink's setting for {@link #distributeAbove} (as text, so that a bad value is this action's
   * one-line error naming it, not Flink's conversion message).
   */
  private static final ConfigOption<String> DISTRIBUTE_ABOVE = ConfigOptions.key(DistributeAbove.FLINK_SETTING)
      .stringType().noDefaultValue()
      .withDescription("Versions' manifests up to which a Lance cleanup runs in the client instead of as a job: a table"
          + " of at most this many versions, or a daily incremental run with at most this many new since the last run's"
          + " key snapshot (0: every run a job).");

  /**
   * A cleanup on {@code env}, whose configuration's {@value DistributeAbove#FLINK_SETTING}, when set,
   * is its {@link #distributeAbove} until the caller gives one ({@code distribute_above => N}); a bad
   * value fails here, before anything is read or deleted.
   */
  public FlinkCleanupAction(
      StreamExecutionEnvironment env, TableLocation table, TableStorageFactory storageFactory, Clock clock) {
    super(table, storageFactory, clock, "flink");
    this.env = Objects.requireNonNull(env, "env");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    configuredDistributeAbove(env).ifPresent(super::distributeAbove);
  }

  /**
   * {@code env}'s {@value DistributeAbove#FLINK_SETTING}, when its configuration sets it (a table
   * environment's config, which a procedure's environment carries, or the job's configuration);
   * a one-line error naming the setting when it is not a whole number of versions from 0.
   */
  public static OptionalInt configuredDistributeAbove(StreamExecutionEnvironment env) {
    return env.getConfiguration().getOptional(DISTRIBUTE_ABOVE)
        .map(text -> OptionalInt.of(DistributeAbove.parse(text, DistributeAbove.FLINK_SETTING)))
        .orElse(OptionalInt.empty());
  }

  /** Manifests per mark record. */
  public FlinkCleanupAction sliceSize(int manifests) {
    if (manifests < 1) {
      throw new IllegalArgumentException("slice size must be > 0: " + manifests);
    }
    this.sliceSize = manifests;
    return this;
  }

  /** Appended to every operator uid, for jobs that hold more than one cleanup. */
  public FlinkCleanupAction uidSuffix(String suffix) {
    this.uidSuffix = Objects.requireNonNull(suffix, "suffix");
    return this;
  }

  /** Also sends every removed file back to this client, to the listener. */
  @Override
  public FlinkCleanupAction onRemovedFile(Consumer<CandidateFile> listener) {
    report = FileReport.EMIT;
    return super.onRemovedFile(listener);
  }

  @Override
  protected CleanupResult cleanDataset(DatasetCleanup cleanup) {
    long startMillis = System.currentTimeMillis();
    CleanupPlan plan;
    Optional<CleanupPlan> resumed;
    String resumedFrom;
    CleanupJobSpec spec;
    List<MarkTask> markTasks;
    // The ledger is read and folded on the client beside the plan's listing of _versions/, as the
    // local engine does (LedgerReadAhead says why that is exact); a read still under way ends
    // before the storage it reads through closes. Where the dataset has a key snapshot, the
    // snapshot is read instead (unless distribute_above is 0: every run is a job): a run in the
    // client decides from it and reads none of the ledger to mark (docs/ledger.md, section 12).
    // Whether the run stays in the client is known only from the plan and the snapshot: a table of
    // at most distribute_above versions, or a daily run with at most that many new since the
    // snapshot. A run that becomes a job after all reads the ledger after the plan, from the
    // listing taken ahead, which is as exact; the job's client leaves the snapshot of the versions
    // it keeps, for the next daily run. With listing => 'auto' on an object store a run in the
    // client may examine names instead of listing, as the local engine's: the record of the last
    // listing is read ahead with the snapshot, and the choice made beside the plan (ListingChoice);
    // a run that becomes a job after all lists.
    try (TableStorage storage = storageFactory.open(table());
        InProcessReadAhead ahead = InProcessReadAhead.start(storage, cleanup, markMode(), clock(), mayCleanInProcess(),
            mayExamineNamesInProcess(storage, cleanup), putMargin())) {
      plan = CleanupRun.plan(storage, new CleanupPlanner(sliceSize).listingSeenBy(ahead.readsEarly()), cleanup);
      CleanupPlan planned = plan;
      Optional<String> inClient = cleanedInProcessBecause(plan, () -> ahead.versionsToDecode(planned));
      if (inClient.isPresent()) {
        LOG.info("lance cleanup {}: {}: cleaning in the client", table(), inClient.get());
        return ahead.clean(inProcess(cleanup, plan));
      }
      // The job is one dataflow: whether it resumes a dead run's sweep is settled here, before it is built.
      SweepResume resume = sweepResume(storage, cleanup.dataset());
      resumed = resume.resumable(plan);
      resumedFrom = resume.resumedFrom();
      env.setRuntimeMode(RuntimeExecutionMode.BATCH);
      RecordPlan.DecisionRecord decisionRecord = resume.decidedFiles()
          .map(files -> new RecordPlan.DecisionRecord(files, SweepResume.planOf(plan, env.getParallelism())))
          .orElse(null);
      spec = new CleanupJobSpec(
          table(), storageFactory, settings(), report, uidSuffix, startMillis, recordedFiles(cleanup.dataset()).orElse(null),
          decisionRecord, resumed.isPresent());
      markTasks = MarkTasks.of(storage, plan, markMode(), settings().mode(), clock(), new LedgerJobs(env, spec, plan), ahead.ledger(), mayCleanInProcess());
    } catch (LedgerJobs.LedgerJobException e) {
      throw FlinkFailures.unwrap(table().toString(), e.getCause());
    }
    DataStream<RunOutput> outputs = CleanupTopology.build(env, spec, resumed.orElse(plan), markTasks);
    Collected collected;
    try (CloseableIterator<RunOutput> each = outputs.executeAndCollect(jobName())) {
      collected = collect(each);
    } catch (Exception e) {
      throw FlinkFailures.unwrap(table().toString(), e);
    }
    CleanupCounters counters = collected.counters();
    progress().settleManifestsRead(collected.manifestsRead());
    retireExpiryRecords(plan, collected.expiryRecordsUsed(), counters);
    long durationMillis = System.currentTimeMillis() - startMillis;
    return CleanupRun.result(
        table().toString(), settings().mode(), plan.facts().latestVersion(), counters, durationMillis,
        markMode(), collected.manifestsRead(), resumedFrom);
  }

  /**
   * What the job sent back besides the removed files: the run's counters, the manifests its mark
   * stage read and the expiry records it used.
   */
  private record Collected(CleanupCounters counters, long manifestsRead, Set<String> expiryRecordsUsed) {}

  private String jobName() {
    return "lance cleanup " + table() + (settings().mode() == CleanupMode.DRY_RUN ? " (dry run)" : "");
  }

  /**
   * The job's one dataflow cannot call back after its release, so the client retires the expiry
   * records the mark stage used, under {@link CleanupRun#retiresExpiryRecords}'s rule, as the other
   * engines' drivers do after theirs. Nothing in a dry run.
   */
  private void retireExpiryRecords(CleanupPlan plan, Set<String> records, CleanupCounters counters) {
    if (CleanupRun.retiresExpiryRecords(table().toString(), plan.facts(), counters)) {
      ExpiryRecords.retireUsed(settings().mode(), this::ensureLeaseHeld, storageFactory, table(), plan.facts().dataset(), records);
    }
  }

  private Collected collect(CloseableIterator<RunOutput> outputs) {
    CleanupCounters counters = CleanupCounters.ZERO;
    long manifestsRead = 0;
    Set<String> records = new TreeSet<>();
    while (outputs.hasNext()) {
      RunOutput output = outputs.next();
      if (output.isCounters()) {
        counters = counters.plus(output.counters());
      } else if (output.isMark()) {
        manifestsRead += output.manifestsRead();
        records.addAll(output.expiryRecords());
      } else {
        removedFileListener().accept(output.removed());
      }
    }
    return new Collected(counters, manifestsRead, records);
  }
}
