package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.compaction.CompactionPlan;
import dev.lancemaintenance.compaction.CompactionPlanner;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.LeaseHolder;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic maintenance of one table (parallelism 1, one key): on every tick, checks whether a run
 * is due ({@link PeriodicSpec#due}), takes the table's {@link TableLease} (the one every engine's
 * runs take; renewed while the run goes on, so a lease of {@link PeriodicSpec#lease()} only has to
 * outlive a stalled holder), runs its {@link PeriodicTask} (cleanup, compaction or optimize) and
 * emits the result; a run that finds the lease held skips its turn.
 *
 * <p>The run executes the engine's stages inside this task with the reference engine: a streaming
 * job cannot start a nested batch job from an operator. It is synchronous, so a checkpoint barrier
 * waits for it and a checkpoint never holds half a run; {@link LastRun} is checkpointed state, so a
 * restored job keeps its schedule: a run the checkpoint covers is not run again, and the next one
 * comes when due after it. A run that happened after the restored checkpoint runs again: cleanup is
 * idempotent, so the repeat finds that run's files gone and reports only what it removes itself;
 * results never count a file twice (see {@code PeriodicMaintenanceRestoreIT}).
 *
 * <p>A refused or failed run (a tagged old version, an unreadable manifest) does not fail the
 * streaming job: it is logged, counted in {@code failed_runs}, and retried when next due.
 */
public final class TriggerMaintenance<R> extends KeyedProcessFunction<Integer, Long, R> {
  private static final Logger LOG = LoggerFactory.getLogger(TriggerMaintenance.class);

  private final PeriodicSpec spec;
  private final PeriodicTask<R> task;
  private final String operatorUid;
  private transient ValueState<LastRun> lastRun;
  private transient TableStorage storage;
  private transient String owner;
  private transient Counter runs;
  private transient Counter skippedRuns;
  private transient Counter failedRuns;
  private transient Counter filesDeleted;
  private transient Counter bytesDeleted;

  /**
   * @param operatorUid this operator's uid: with the job id it names the lock's owner, the same
   *     across restarts of the job (so a restarted attempt takes back its own lease) and different
   *     for every other periodic operator, in this job or another
   */
  public TriggerMaintenance(PeriodicSpec spec, PeriodicTask<R> task, String operatorUid) {
    this.spec = spec;
    this.task = task;
    this.operatorUid = operatorUid;
  }

  @Override
  public void open(OpenContext openContext) {
    lastRun = getRuntimeContext().getState(new ValueStateDescriptor<>("last-run", TypeInformation.of(LastRun.class)));
    storage = new HadoopTableStorage(spec.table(), spec.storage());
    owner = "flink-job-" + getRuntimeContext().getJobInfo().getJobId() + "/" + operatorUid;
    MetricGroup metrics = MaintenanceMetrics.of(getRuntimeContext());
    runs = metrics.counter(MaintenanceMetrics.RUNS);
    skippedRuns = metrics.counter(MaintenanceMetrics.SKIPPED_RUNS);
    failedRuns = metrics.counter(MaintenanceMetrics.FAILED_RUNS);
    filesDeleted = metrics.counter(MaintenanceMetrics.FILES_REMOVED);
    bytesDeleted = metrics.counter(MaintenanceMetrics.BYTES_FREED);
  }

  @Override
  public void processElement(Long tick, Context ctx, Collector<R> out) throws Exception {
    long now = ctx.timerService().currentProcessingTime();
    long latest = latestVersion();
    if (!spec.due(lastRun.value(), now, latest, this::fragmentsToMerge)) {
      return;
    }
    Optional<TableLease> lock = TableLease.tryAcquire(storage, LeaseHolder.ofOwner(owner), spec.lease(), Clock.systemUTC());
    if (lock.isEmpty()) {
      LOG.info("lance {} {}: another run holds the lock; skipping this one", task.name(), spec.table());
      skippedRuns.inc();
      return;
    }
    lastRun.update(new LastRun(now, latest));
    // The run below goes on this thread, so its own lease is this one, nested.
    try (TableLease held = lock.get()) {
      R result = task.run(spec);
      runs.inc();
      filesDeleted.inc(task.filesDeleted(result));
      bytesDeleted.inc(task.bytesDeleted(result));
      out.collect(result);
    } catch (MaintenanceException e) {
      LOG.warn("lance {} {}: periodic run failed, retrying when next due: {}", task.name(), spec.table(), e.getMessage());
      failedRuns.inc();
    }
  }

  /** Fragments Lance's planner would merge now: the small-fragment trigger. */
  private long fragmentsToMerge() {
    try {
      CompactionPlan plan =
          new CompactionPlanner().plan(CompactionTable.of(spec.table(), spec.sdkOptions()), spec.compaction());
      return plan.tasks().stream().mapToLong(t -> t.fragmentIds().size()).sum();
    } catch (MaintenanceException e) {
      LOG.warn("lance {} {}: could not plan a compaction to count small fragments, asking again next tick: {}",
          task.name(), spec.table(), e.getMessage());
      return 0;
    }
  }

  private long latestVersion() {
    return VersionListing.list(storage, DatasetRef.MAIN).stream().mapToLong(ManifestLocation::version).max().orElse(0);
  }

  @Override
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
