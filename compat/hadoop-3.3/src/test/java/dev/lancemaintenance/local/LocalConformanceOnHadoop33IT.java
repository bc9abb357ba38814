package dev.lancemaintenance.local;

import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * The local engine meets the cleanup contract on the Hadoop 3.3 client (every read goes through
 * its {@code openFile}): common's {@link LocalCleanupConformanceIT} on the conformance subset of
 * issue 14, every policy of each scenario. The full set runs on the 3.4 client in common.
 */
class LocalConformanceOnHadoop33IT extends LocalCleanupConformanceIT {
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
        ConformanceScenarios::blobs,
        ConformanceScenarios::v1Manifests,
        dir -> ConformanceScenarios.randomMix(dir, 7));
  }
}
