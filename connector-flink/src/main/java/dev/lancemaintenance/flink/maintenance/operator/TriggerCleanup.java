package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.local.LocalCleanupAction;
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
 * Periodic cleanup of one table (parallelism 1, one key): on every tick, checks whether a run is
 * due (time since the last run, or versions committed since), takes the table's {@link TableLease}
 * (the one every engine's cleanup takes; renewed while the run goes on, so a lease of
 * {@link PeriodicCleanupSpec#lease()} only has to outlive a stalled holder), runs the cleanup and
 * emits its result; a run that finds the lease held skips its turn.
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
public final class TriggerCleanup extends KeyedProcessFunction<Integer, Long, CleanupResult> {
  private static final Logger LOG = LoggerFactory.getLogger(TriggerCleanup.class);

  private final PeriodicCleanupSpec spec;
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
  public TriggerCleanup(PeriodicCleanupSpec spec, String operatorUid) {
    this.spec = spec;
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
    filesDeleted = metrics.counter(MaintenanceMetrics.FILES_DELETED);
    bytesDeleted = metrics.counter(MaintenanceMetrics.BYTES_DELETED);
  }

  @Override
  public void processElement(Long tick, Context ctx, Collector<CleanupResult> out) throws Exception {
    long now = ctx.timerService().currentProcessingTime();
    long latest = latestVersion();
    if (!spec.due(lastRun.value(), now, latest)) {
      return;
    }
    Optional<TableLease> lock = TableLease.tryAcquire(storage, LeaseHolder.ofOwner(owner), spec.lease(), Clock.systemUTC());
    if (lock.isEmpty()) {
      LOG.info("lance cleanup {}: another run holds the lock; skipping this one", spec.table());
      skippedRuns.inc();
      return;
    }
    lastRun.update(new LastRun(now, latest));
    // The cleanup below runs on this thread, so its own lease is this one, nested.
    try (TableLease held = lock.get()) {
      CleanupResult result = run();
      runs.inc();
      filesDeleted.inc(MaintenanceMetrics.filesRemoved(result.counters()));
      bytesDeleted.inc(result.counters().bytesRemoved());
      out.collect(result);
    } catch (MaintenanceException e) {
      LOG.warn("lance cleanup {}: periodic run failed, retrying when next due: {}", spec.table(), e.getMessage());
      failedRuns.inc();
    }
  }

  private CleanupResult run() {
    LocalCleanupAction action =
        new LocalCleanupAction(spec.table(), HadoopTableStorage.factory(spec.storage()), Clock.systemUTC());
    action.olderThan(spec.olderThan());
    return action.execute();
  }

  private long latestVersion() {
    return VersionListing.list(storage, "").stream().mapToLong(ManifestLocation::version).max().orElse(0);
  }

  @Override
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
