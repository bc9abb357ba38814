package dev.lancemaintenance.flink.maintenance.api;

import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The cleanup contract on Flink 1.20: the shapes the issue names for every line (appends, deletes,
 * indices, compaction, tags, branches, shallow clone, blobs, V1 manifest names, unverified planted files,
 * a seeded mix), each cleaned at a cutoff inside its history and with everything old, once plain
 * and once with each flag (delete_unverified, no tagged error, a branch, clean_referenced_branches).
 * connector-flink runs every scenario with every policy, and LanceDB's tables, on Flink 2.x. Both
 * lines run the same engine code, so what this covers is what differs: Flink itself (its type
 * system, operators, failures and MiniCluster) under every stage and every refusal.
 */
class FlinkCleanupConformanceSubsetIT extends FlinkCleanupConformanceIT {
  @Override
  protected List<Function<Path, Scenario>> scenarios() {
    return List.of(
        ConformanceScenarios::appends,
        ConformanceScenarios::deletes,
        ConformanceScenarios::indices,
        ConformanceScenarios::compaction,
        ConformanceScenarios::tags,
        ConformanceScenarios::branches,
        ConformanceScenarios::shallowClone,
        ConformanceScenarios::blobs,
        ConformanceScenarios::v1Manifests,
        ConformanceScenarios::plantedFiles,
        dir -> ConformanceScenarios.randomMix(dir, 7));
  }

  @Override
  protected List<ContractPolicy> policies(Scenario scenario) {
    List<ContractPolicy> every = super.policies(scenario);
    ContractPolicy firstCutoff = every.get(0);
    // "everything old" is the latest cutoff: every other policy but the per-instant ones derives from it.
    ContractPolicy everythingOld = every.stream().max(Comparator.comparing(ContractPolicy::beforeTimestamp)).orElseThrow();
    Optional<String> firstBranch = every.stream().flatMap(p -> p.branch().stream()).findFirst();
    return every.stream()
        .filter(p -> p == firstCutoff
            || (p.beforeTimestamp().equals(everythingOld.beforeTimestamp())
                && p.beforeVersion().isEmpty()
                && flags(p) <= 1
                && (p.branch().isEmpty() || p.branch().equals(firstBranch))))
        .toList();
  }

  @Override
  protected boolean withLanceDbTables() {
    return false;
  }

  private static int flags(ContractPolicy p) {
    return (p.deleteUnverified() ? 1 : 0) + (p.errorIfTaggedOldVersions() ? 0 : 1) + (p.branch().isPresent() ? 1 : 0)
        + (p.cleanReferencedBranches() ? 1 : 0);
  }
}
