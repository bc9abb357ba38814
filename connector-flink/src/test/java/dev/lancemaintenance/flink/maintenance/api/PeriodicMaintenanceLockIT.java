package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.CallbackSink;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two periodic cleanups of one table in one job, both due all the time: they take turns on the
 * table's lock and their runs never overlap in time.
 */
class PeriodicMaintenanceLockIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  // Runs reach the test through this: the job runs in this JVM on the MiniCluster.
  private static final List<Run> RUNS = new CopyOnWriteArrayList<>();
  private static final long CLOCK_SLACK_MILLIS = 2;

  @TempDir Path workDir;

  @Test
  void twoPeriodicOperatorsOnOneTableNeverRunAtOnce() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("contended"));
    for (int i = 0; i < 4; i++) {
      table.append(10);
    }
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    CallbackSink.into(periodic(env, table, "a").union(periodic(env, table, "b")), run -> RUNS.add(run));
    JobClient job = env.executeAsync("two periodic cleanups of one table");
    try {
      long deadline = System.currentTimeMillis() + 90_000;
      while (runsOf("a") < 3 || runsOf("b") < 3) {
        assertThat(System.currentTimeMillis()).as("both operators ran three times by now").isLessThan(deadline);
        Thread.sleep(100);
      }
    } finally {
      job.cancel().get();
      // cancel() returns once the request is taken; the operators release the lock as they stop,
      // writing into the table, and must be done before the temporary directory goes.
      while (!job.getJobStatus().get().isGloballyTerminalState()) {
        Thread.sleep(20);
      }
    }

    List<Run> runs = new ArrayList<>(RUNS);
    runs.sort(Comparator.comparingLong(Run::startMillis));
    List<String> overlapping = new ArrayList<>();
    for (int i = 1; i < runs.size(); i++) {
      if (runs.get(i).startMillis() + CLOCK_SLACK_MILLIS < runs.get(i - 1).endMillis()) {
        overlapping.add(runs.get(i - 1) + " / " + runs.get(i));
      }
    }
    assertThat(overlapping).as("runs that overlap, of %s", runs).isEmpty();
  }

  private static DataStream<Run> periodic(StreamExecutionEnvironment env, LanceTableFixture table, String name) {
    return PeriodicMaintenance.cleanup(table.uri())
        .every(Duration.ofMillis(1))
        .olderThan(Duration.ofDays(1))
        .checkEvery(Duration.ofMillis(20))
        .uidSuffix(name)
        .append(env)
        .map(new Stamp(name), TypeInformation.of(Run.class));
  }

  private static long runsOf(String operator) {
    return RUNS.stream().filter(run -> run.operator().equals(operator)).count();
  }

  /**
   * One run as seen right after it: its end is now, its start its duration before. Public, so that
   * Flink ships it as a POJO: Flink 1.20's Kryo cannot write records.
   */
  public record Run(String operator, long startMillis, long endMillis) implements Serializable {}

  static final class Stamp implements MapFunction<CleanupResult, Run> {
    private final String operator;

    Stamp(String operator) {
      this.operator = operator;
    }

    @Override
    public Run map(CleanupResult result) {
      long end = System.currentTimeMillis();
      return new Run(operator, end - result.durationMillis(), end);
    }
  }
}
