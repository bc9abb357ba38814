package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * How much of the cleanup contract a build runs. The primary lines (the local engine, Spark 4.1 in
 * {@code connector-spark}, Flink 2.2 in {@code connector-flink}) run it all; the other lines
 * (Spark 3.5, 4.0, 4.2, Flink 1.20, the Hadoop 3.3 client) compile and run the same engine code,
 * so what they must prove is what differs there (the line's Spark or Flink, its serializers, its
 * Hadoop client) under every stage and every refusal, not every policy again: the subset keeps
 * each shape the issue names and, per shape, the first cutoff and "everything old" with at most one
 * flag. Their poms set {@value #PROPERTY}{@code =subset}; CI's time budget is the reason.
 */
public enum ConformanceScope {
  FULL,
  SUBSET;

  /** The system property a module's surefire configuration sets to run the subset. */
  public static final String PROPERTY = "lance.maintenance.conformance";

  /** The scope this JVM was started with: {@link #FULL} unless {@value #PROPERTY} says otherwise. */
  public static ConformanceScope current() {
    String value = System.getProperty(PROPERTY, "full").trim().toUpperCase(Locale.ROOT);
    try {
      return valueOf(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(PROPERTY + " must be full or subset, not " + System.getProperty(PROPERTY), e);
    }
  }

  /** The scenarios this scope runs, by a key that names each across builds and modules. */
  Map<String, Function<Path, Scenario>> scenarios() {
    Map<String, Function<Path, Scenario>> all = new LinkedHashMap<>();
    all.put("appends", ConformanceScenarios::appends);
    all.put("deletes", ConformanceScenarios::deletes);
    all.put("updates", ConformanceScenarios::updates);
    all.put("overwrite", ConformanceScenarios::overwrite);
    all.put("indices", ConformanceScenarios::indices);
    all.put("compaction", ConformanceScenarios::compaction);
    all.put("tags", ConformanceScenarios::tags);
    all.put("branches", ConformanceScenarios::branches);
    all.put("auto-cleanup-branches", ConformanceScenarios::autoCleanupBranches);
    all.put("shallow-clone", ConformanceScenarios::shallowClone);
    all.put("blobs", ConformanceScenarios::blobs);
    all.put("v1-manifests", ConformanceScenarios::v1Manifests);
    all.put("planted", ConformanceScenarios::plantedFiles);
    all.put("random-7", dir -> ConformanceScenarios.randomMix(dir, 7));
    if (this == SUBSET) {
      all.keySet().removeAll(List.of("updates", "overwrite", "auto-cleanup-branches"));
    }
    return Collections.unmodifiableMap(all);
  }

  /** Of every policy a scenario is cleaned with, those this scope runs. */
  List<ContractPolicy> policies(List<ContractPolicy> every) {
    if (this == FULL || every.isEmpty()) {
      return every;
    }
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

  /** Whether LanceDB's tables run too: their reader and writer are the same on every line. */
  boolean withLanceDbTables() {
    return this == FULL;
  }

  private static int flags(ContractPolicy p) {
    return (p.deleteUnverified() ? 1 : 0) + (p.errorIfTaggedOldVersions() ? 0 : 1) + (p.branch().isPresent() ? 1 : 0)
        + (p.cleanReferencedBranches() ? 1 : 0);
  }
}
