package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.CallbackSink;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.flink.maintenance.operator.MaintenanceMetrics;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periodic maintenance restored from a checkpoint after a failure right behind a run.
 *
 * <p>What "without losing or repeating a run's effects" means for cleanup, which is idempotent: a
 * run the restored checkpoint covers is not run again (its {@code LastRun} is in the state, so the
 * schedule continues from it), the next run still comes when due, and a run the checkpoint does
 * not cover runs again but finds its files gone: it reports only what it removed itself (nothing),
 * so the emitted results never count a file twice.
 */
class PeriodicMaintenanceRestoreIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final Duration QUIET = Duration.ofSeconds(2);

  // The job runs in this JVM on the MiniCluster; its operators report to the test through these.
  private static final List<CleanupResult> RESULTS = new CopyOnWriteArrayList<>();
  private static final AtomicBoolean FAILED = new AtomicBoolean();
  private static final AtomicInteger ATTEMPTS = new AtomicInteger();

  @TempDir Path workDir;

  @BeforeEach
  void reset() {
    RESULTS.clear();
    FAILED.set(false);
    ATTEMPTS.set(0);
  }

  @Test
  void aCheckpointedRunIsNotRepeatedAfterRestoreAndTheNextRunStillComes() throws Exception {
    LanceTableFixture table = tableWithOldVersions("checkpointed");
    Set<String> beforeFirstRun = files(table);
    JobClient job = start(table, FailurePoint.AFTER_A_CHECKPOINT_COVERS_THE_RUN);
    try {
      await("the job failed after a checkpointed run and was restored", () -> FAILED.get() && ATTEMPTS.get() >= 2);
      Thread.sleep(QUIET.toMillis());
      assertThat(RESULTS).as("results after the restore, with nothing new to do").hasSize(1);
      Set<String> afterFirstRun = files(table);
      assertThat(removed(RESULTS.get(0))).as("files the first run removed").isEqualTo(gone(beforeFirstRun, afterFirstRun)).isPositive();

      appendVersions(table, 3);
      Set<String> beforeSecondRun = files(table);
      await("the run due after three new versions", () -> RESULTS.size() >= 2);
      assertThat(removed(RESULTS.get(1))).as("files the second run removed").isEqualTo(gone(beforeSecondRun, files(table))).isPositive();
    } finally {
      job.cancel().get();
    }
    assertThat(RESULTS).as("runs in all").hasSize(2);
    assertReadsBack(table);
  }

  @Test
  void aRunTheCheckpointMissedRunsAgainAndRemovesNothingTwice() throws Exception {
    LanceTableFixture table = tableWithOldVersions("uncheckpointed");
    Set<String> beforeFirstRun = files(table);
    JobClient job = start(table, FailurePoint.RIGHT_AFTER_THE_RUN);
    try {
      await("the run was repeated after the restore", () -> FAILED.get() && RESULTS.size() >= 2);
      Thread.sleep(QUIET.toMillis());
    } finally {
      job.cancel().get();
    }
    assertThat(RESULTS).as("the run and its repetition").hasSize(2);
    assertThat(removed(RESULTS.get(0))).as("files the run removed").isEqualTo(gone(beforeFirstRun, files(table))).isPositive();
    assertThat(removed(RESULTS.get(1))).as("files the repeated run removed").isZero();
    assertReadsBack(table);
  }

  private JobClient start(LanceTableFixture table, FailurePoint failure) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
    conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.enableCheckpointing(200);
    SingleOutputStreamOperator<CleanupResult> results = PeriodicMaintenance.cleanup(table.uri())
        .every(Duration.ofHours(1))
        .everyNewVersions(3)
        .olderThan(Duration.ZERO)
        .checkEvery(Duration.ofMillis(100))
        .append(env)
        .process(new FailOnce(failure), TypeInformation.of(CleanupResult.class))
        .setParallelism(1);
    CallbackSink.into(results, result -> RESULTS.add(result)).setParallelism(1);
    return env.executeAsync("periodic lance cleanup, restored");
  }

  private LanceTableFixture tableWithOldVersions(String name) {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve(name));
    appendVersions(table, 4);
    table.deleteWhere("id % 2 = 0");
    return table;
  }

  private static void appendVersions(LanceTableFixture table, int versions) {
    for (int i = 0; i < versions; i++) {
      table.append(10);
    }
  }

  private static Set<String> files(LanceTableFixture table) {
    TreeSet<String> files = new TreeSet<>(table.listFiles());
    files.removeIf(path -> path.startsWith("_maintenance"));
    return files;
  }

  private static long gone(Set<String> before, Set<String> after) {
    return before.stream().filter(file -> !after.contains(file)).count();
  }

  private static long removed(CleanupResult result) {
    return result.counters().filesRemoved();
  }

  private static void assertReadsBack(LanceTableFixture table) {
    assertThat(table.versions()).as("versions left: the latest, as older_than 0 keeps").hasSize(1);
    assertThat(ReadBack.snapshot(table.root()).entries().values())
        .as("the remaining version reads back")
        .isNotEmpty()
        .noneMatch(content -> content instanceof TableContent.Unreadable);
  }

  private static void await(String what, BooleanSupplier condition) throws InterruptedException {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).as("waiting for: %s", what).isBefore(deadline);
      Thread.sleep(50);
    }
  }

  enum FailurePoint {
    /** After a checkpoint that includes the run's state completes: the restore skips the run. */
    AFTER_A_CHECKPOINT_COVERS_THE_RUN,
    /** As soon as the run's result is out, before any checkpoint holds it: the restore repeats it. */
    RIGHT_AFTER_THE_RUN
  }

  /** Passes results on and fails the job once, at the chosen point after the first run. */
  static final class FailOnce extends ProcessFunction<CleanupResult, CleanupResult>
      implements CheckpointedFunction, CheckpointListener {
    private final FailurePoint point;
    private transient boolean sawRun;
    private transient long coveringCheckpoint;

    FailOnce(FailurePoint point) {
      this.point = point;
    }

    @Override
    public void open(OpenContext context) {
      ATTEMPTS.incrementAndGet();
      coveringCheckpoint = -1;
    }

    @Override
    public void processElement(CleanupResult result, Context ctx, Collector<CleanupResult> out) {
      out.collect(result);
      sawRun = true;
      if (point == FailurePoint.RIGHT_AFTER_THE_RUN && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure right after a run");
      }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (sawRun && coveringCheckpoint < 0) {
        coveringCheckpoint = context.getCheckpointId();
      }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (point == FailurePoint.AFTER_A_CHECKPOINT_COVERS_THE_RUN
          && coveringCheckpoint >= 0
          && checkpointId >= coveringCheckpoint
          && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("injected failure after checkpoint " + checkpointId + " covered a run");
      }
    }
  }
}
