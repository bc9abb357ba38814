package dev.lancemaintenance.compaction;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.TableStorages;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The compact action of every engine: the policy from the fluent setters, planning on the driver,
 * group commits as tasks finish, the table's lease and the result. Where the tasks run is the
 * {@link CompactionEngine}'s: local threads, Spark executors, Flink subtasks.
 */
public final class EngineCompactAction implements CompactAction {
  private static final Logger LOG = LoggerFactory.getLogger(EngineCompactAction.class);

  private final CompactionTable table;
  private final CompactionWorker worker;
  private final CompactionEngine engine;
  private CompactionPolicy policy = CompactionPolicy.DEFAULT;
  private TableLocation leaseLocation;
  private TableStorageFactory leaseStorage;

  /** With the real SDK rewrite as the worker. */
  public EngineCompactAction(CompactionTable table, CompactionEngine engine) {
    this(table, new CompactionTaskRunner(table), engine);
  }

  /**
   * @param worker what runs one task (the SDK rewrite; in tests one that counts or fails), shipped
   *     by the engine to where the tasks run
   */
  public EngineCompactAction(CompactionTable table, CompactionWorker worker, CompactionEngine engine) {
    this.table = Objects.requireNonNull(table, "table");
    this.worker = Objects.requireNonNull(worker, "worker");
    this.engine = Objects.requireNonNull(engine, "engine");
  }

  @Override
  public CompactAction targetRowsPerFragment(long rows) {
    return update(policy.toBuilder().targetRowsPerFragment(rows));
  }

  @Override
  public CompactAction maxRowsPerGroup(long rows) {
    return update(policy.toBuilder().maxRowsPerGroup(rows));
  }

  @Override
  public CompactAction maxBytesPerFile(long bytes) {
    return update(policy.toBuilder().maxBytesPerFile(bytes));
  }

  @Override
  public CompactAction materializeDeletions(boolean materialize) {
    return update(policy.toBuilder().materializeDeletions(materialize));
  }

  @Override
  public CompactAction materializeDeletionsThreshold(double share) {
    return update(policy.toBuilder().materializeDeletionsThreshold(share));
  }

  @Override
  public CompactAction numThreads(long threads) {
    return update(policy.toBuilder().numThreads(threads));
  }

  @Override
  public CompactAction batchSize(long rows) {
    return update(policy.toBuilder().batchSize(rows));
  }

  @Override
  public CompactAction maxConcurrentTasks(int tasks) {
    return update(policy.toBuilder().maxConcurrentTasks(tasks));
  }

  @Override
  public CompactAction partialProgress(int tasksPerCommit) {
    return update(policy.toBuilder().partialProgress(tasksPerCommit));
  }

  @Override
  public CompactAction policy(CompactionPolicy newPolicy) {
    this.policy = Objects.requireNonNull(newPolicy, "policy");
    return this;
  }

  @Override
  public CompactionPolicy policy() {
    return policy;
  }

  private CompactAction update(CompactionPolicy.Builder builder) {
    // build() validates, so a bad value fails at its setter, naming the parameter.
    this.policy = builder.build();
    return this;
  }

  @Override
  public CompactionPlan plan() {
    CompactionPlan plan = new CompactionPlanner().plan(table, policy);
    LOG.info(
        "lance compact {} [1/3 plan]: v{}, {} tasks merge {} fragments, {}",
        table, plan.readVersion(), plan.tasks().size(), plan.fragmentsToMerge(), policy);
    return plan;
  }

  @Override
  public CompactAction leaseThrough(TableLocation location, TableStorageFactory storage) {
    this.leaseLocation = Objects.requireNonNull(location, "location");
    this.leaseStorage = Objects.requireNonNull(storage, "storage");
    return this;
  }

  /** Runs the plan holding the table's lease (see {@link #leaseThrough}); an empty plan takes none. */
  @Override
  public CompactResult execute(CompactionPlan plan) {
    if (plan.isEmpty()) {
      return executeHoldingLease(plan);
    }
    TableLocation location = leaseLocation;
    TableStorageFactory storage = leaseStorage;
    if (location == null) {
      location = TableLocation.of(table.uri());
      String scheme = location.uri().substring(0, location.uri().indexOf(':'));
      if (!scheme.equals("file") && !scheme.equals("hdfs")) {
        LOG.warn("lance compact {}: takes no table lease: no Hadoop settings for its store were given", table);
        return executeHoldingLease(plan);
      }
      storage = TableStorages.factory(StorageConf.defaults());
    }
    try (TableStorage leaseStorage = storage.open(location);
        TableLease held = TableLease.acquire(leaseStorage, "compact")) {
      return executeHoldingLease(plan);
    }
  }

  private CompactResult executeHoldingLease(CompactionPlan plan) {
    long startNanos = System.nanoTime();
    CompactionPolicy runPolicy = policy;
    CompactionCommitter committer = new CompactionCommitter(table, runPolicy, plan);
    if (!plan.isEmpty()) {
      try {
        engine.runTasks(new CompactionTasks(table, plan, worker, runPolicy.maxConcurrentTasks()), committer::accept);
      } catch (RuntimeException e) {
        throw new CompactionFailedException(table.toString(), committer.progress(), e);
      }
    }
    CommitProgress done = committer.progress();
    if (done.groupsCommitted() != done.groups()) {
      // An engine that returns normally must have handed in every task.
      throw new MaintenanceException(
          "Cannot compact " + table + ": the engine finished with " + (done.groups() - done.groupsCommitted())
              + " commit group(s) incomplete (" + done.tasksCommitted() + " of " + plan.tasks().size()
              + " tasks committed)");
    }
    long durationMillis = (System.nanoTime() - startNanos) / 1_000_000L;
    LOG.info("lance compact {} [3/3 commit] done in {} ms: v{} -> v{}, {}",
        table, durationMillis, plan.readVersion(), done.version(), done.counters());
    return new CompactResult(
        table.toString(), plan.readVersion(), done.version(), plan.tasks().size(), done.groupsCommitted(),
        done.counters(), durationMillis);
  }
}
