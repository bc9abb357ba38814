package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A dry run on Flink deletes nothing and names exactly the files the real run then deletes. */
class FlinkDryRunIT {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @TempDir static Path workDir;
  private static PristineTable table;

  @BeforeAll
  static void writeTable() {
    Scenario scenario = ConformanceScenarios.deletes(workDir);
    table = PristineTable.keep(scenario.table().root(), workDir.resolve("pristine"));
  }

  @Test
  void dryRunDeletesNothing() {
    table.restore();
    CleanupResult result = cleanup(new ArrayList<>()).dryRun(true).execute();

    assertThat(result.mode()).isEqualTo(CleanupMode.DRY_RUN);
    assertThat(result.counters().oldVersions()).as("versions the dry run would remove").isPositive();
    assertThat(table.currentFiles()).as("files after a dry run").isEqualTo(table.files());
  }

  @Test
  void dryRunListsExactlyWhatTheRealRunDeletes() {
    table.restore();
    List<CandidateFile> wouldGo = new ArrayList<>();
    CleanupResult dry = cleanup(wouldGo).dryRun(true).execute();
    List<CandidateFile> went = new ArrayList<>();
    CleanupResult real = cleanup(went).execute();

    TreeSet<String> deleted = new TreeSet<>(table.files());
    deleted.removeAll(table.currentFiles());
    assertThat(pathsOf(wouldGo)).as("dry run's files vs the real run's").isEqualTo(pathsOf(went)).isEqualTo(deleted);
    assertThat(dry.counters()).as("dry run's counters vs the real run's").isEqualTo(real.counters());
  }

  private static FlinkCleanupAction cleanup(List<CandidateFile> removed) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    FlinkCleanupAction action = LanceFlinkMaintenance.cleanup(env, table.table().toString()).distributeAbove(0);
    action.beforeTimestamp(Instant.now().plus(Duration.ofMinutes(1))).onRemovedFile(removed::add);
    return action;
  }

  private static TreeSet<String> pathsOf(List<CandidateFile> files) {
    TreeSet<String> paths = new TreeSet<>();
    files.forEach(file -> paths.add(file.path()));
    return paths;
  }
}
