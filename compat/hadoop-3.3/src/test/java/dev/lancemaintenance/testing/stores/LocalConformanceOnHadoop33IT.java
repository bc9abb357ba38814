package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupContractTest;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/**
 * The local engine meets the cleanup contract on the Hadoop 3.3 client (reads through its
 * {@code openFile}): the conformance subset of issue 14, every policy of each scenario; the full
 * set runs on the 3.4 client in common's {@code LocalCleanupConformanceIT}.
 */
class LocalConformanceOnHadoop33IT extends CleanupContractTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(7);
  }

  @Override
  protected List<Function<Path, Scenario>> scenarios() {
    return List.of(
        ConformanceScenarios::appends,
        ConformanceScenarios::deletes,
        ConformanceScenarios::tags,
        ConformanceScenarios::indices,
        ConformanceScenarios::compaction,
        ConformanceScenarios::branches,
        ConformanceScenarios::shallowClone,
        ConformanceScenarios::v1Manifests,
        dir -> ConformanceScenarios.randomMix(dir, 7));
  }
}
