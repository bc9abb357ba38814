package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink engine meets the cleanup contract on a MiniCluster at parallelism 2. Slices of two
 * manifests make every scenario cross mark subtasks.
 *
 * <p>A subset of the scenarios, to keep CI near a minute and a half: each case is a Flink job of
 * about a second. Kept are the shapes that exercise what Flink distributes (deletion files, index
 * directories grouped under one key, the tagged-versions gate, branches and clones read across
 * datasets, planted unverified and staging files, a random mix). All 12 scenarios (82 cases) passed
 * on this engine in 225 s; run them with {@code -Dlance.conformance.all=true}.
 */
class FlinkCleanupConformanceIT extends CleanupContractTest {
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();

  @Override
  protected List<Function<Path, Scenario>> scenarios() {
    if (Boolean.getBoolean("lance.conformance.all")) {
      return super.scenarios();
    }
    return List.of(
        ConformanceScenarios::deletes,
        ConformanceScenarios::indices,
        ConformanceScenarios::tags,
        ConformanceScenarios::branches,
        ConformanceScenarios::autoCleanupBranches,
        ConformanceScenarios::shallowClone,
        ConformanceScenarios::plantedFiles,
        dir -> ConformanceScenarios.randomMix(dir, 7));
  }

  @Override
  protected CleanupAction newCleanup(String tableUri) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return new FlinkCleanupAction(
            env, TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .sliceSize(2);
  }
}
