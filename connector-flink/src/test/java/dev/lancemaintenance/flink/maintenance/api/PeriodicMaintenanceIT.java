package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.CallbackSink;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periodic maintenance in a streaming job while the Lance SDK appends to the table: old versions go,
 * the window stays and reads back.
 */
class PeriodicMaintenanceIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  private static final Duration WINDOW = Duration.ofSeconds(2);
  private static final AtomicInteger RUNS_THAT_REMOVED_VERSIONS = new AtomicInteger();

  @TempDir Path workDir;

  @Test
  void keepsTheWindowAndRemovesOlderVersionsWhileTheTableIsAppendedTo() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(workDir.resolve("appended"));
    Map<Long, Instant> written = new TreeMap<>();
    long first = table.append(10);
    written.put(first, table.manifestTimestamp(first));

    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(500);
    DataStream<CleanupResult> results = PeriodicMaintenance.cleanup(table.uri())
        .every(Duration.ofSeconds(1))
        .everyNewVersions(5)
        .olderThan(WINDOW)
        .checkEvery(Duration.ofMillis(200))
        .append(env);
    CallbackSink.into(results, result -> {
      if (result.counters().oldVersions() > 0) {
        RUNS_THAT_REMOVED_VERSIONS.incrementAndGet();
      }
    });
    RUNS_THAT_REMOVED_VERSIONS.set(0);
    JobClient job = env.executeAsync("periodic lance cleanup");
    try {
      // At least six seconds of appends, and on a loaded machine until a run has removed versions
      // (the job may take seconds to start).
      Instant until = Instant.now().plusSeconds(6);
      Instant giveUp = Instant.now().plusSeconds(120);
      while (Instant.now().isBefore(until) || RUNS_THAT_REMOVED_VERSIONS.get() == 0 && Instant.now().isBefore(giveUp)) {
        // A lower bound of the version's timestamp, taken without the SDK's listVersions, which fails
        // when the running cleanup removes a manifest between its listing and its reading.
        Instant beforeCommit = Instant.now();
        long version = table.append(5);
        written.put(version, beforeCommit);
        Thread.sleep(100);
      }
    } finally {
      job.cancel().get();
    }
    Instant stopped = Instant.now();

    List<Long> remaining = table.versions();
    Instant windowStart = stopped.minus(WINDOW);
    List<Long> inWindow =
        written.entrySet().stream().filter(e -> !e.getValue().isBefore(windowStart)).map(Map.Entry::getKey).toList();
    TableSnapshot snapshot = ReadBack.snapshot(table.root());

    assertThat(remaining).as("versions inside the window are all still there").containsAll(inWindow);
    assertThat(remaining).as("the first version, far older than the window, was removed").doesNotContain(first);
    assertThat(snapshot.entries().values())
        .as("every remaining version reads back")
        .hasSize(remaining.size())
        .noneMatch(content -> content instanceof TableContent.Unreadable);
  }
}
