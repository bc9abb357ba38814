package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceDbScenarios.LanceDbScenario;
import dev.lancemaintenance.testing.LanceDbScenarios;
import dev.lancemaintenance.testing.LanceDbWriter;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableSnapshot;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;

/**
 * The cleanup contract on tables written by a second real writer, LanceDB (npm 0.39, Rust Lance
 * 12): with the same cutoff, our cleanup leaves exactly the files LanceDB's own cleanup and the SDK
 * 7.0.0's leave (where the two disagree, the side that keeps a file wins) and refuses where they
 * refuse, and every manifest left on disk, main and branches, reads back in full with the content
 * it had before.
 *
 * <p>Reads go through LanceDB in the writer's working directory, not through the Java SDK: LanceDB
 * records branch base paths relative to that directory ({@code ./db/<table>.lance}), which the SDK
 * resolves against the JVM's working directory and so cannot open (the SDK 7.0.0 does read the main
 * line of these tables). LanceDB's cleanup is {@code optimize}, which compacts first and always
 * refuses tagged old versions: it is compared on main with the tagged-version error on; a branch
 * cleaned on its own is checked with the invariant only, as LanceDB's branch handle compacts the
 * branch before it prunes. Each table is written once per class and restored before every case.
 * {@link CleanupContractTest} runs these cases on every engine.
 */
final class LanceDbContract {
  private LanceDbContract() {}

  static List<Function<Path, LanceDbScenario>> scenarios() {
    return List.of(
        LanceDbScenarios::relativeBranch,
        LanceDbScenarios::historyWithUnverifiedFiles,
        LanceDbScenarios::tags,
        LanceDbScenarios::shallowClone);
  }

  /** One container per scenario, one case per policy, cleaned by the engine's {@code newCleanup}. */
  static Stream<DynamicContainer> cases(Path workDir, Function<String, CleanupAction> newCleanup) {
    return scenarios().stream().map(build -> {
      LanceDbScenario scenario = build.apply(workDir.resolve("tables"));
      PristineTable pristine = PristineTable.keep(scenario.writer().root(), workDir.resolve("pristine").resolve(scenario.name()));
      TableSnapshot before = scenario.writer().readBack();
      return DynamicContainer.dynamicContainer(
          "lancedb " + scenario.name(),
          policiesFor(scenario).stream()
              .map(policy -> DynamicTest.dynamicTest(policy.label(), () -> check(scenario, pristine, before, policy, newCleanup))));
    });
  }

  static List<ContractPolicy> policiesFor(LanceDbScenario scenario) {
    List<ContractPolicy> policies = new ArrayList<>();
    scenario.instants().forEach((label, instant) -> policies.add(ContractPolicy.before(label, instant)));
    ContractPolicy all = ContractPolicy.before("everything old", Instant.now().plus(Duration.ofMinutes(1)));
    policies.add(all);
    policies.add(all.withDeleteUnverified());
    scenario.branches().forEach(branch -> policies.add(all.onBranch(branch)));
    return policies;
  }

  private static void check(LanceDbScenario scenario, PristineTable pristine, TableSnapshot before, ContractPolicy policy,
      Function<String, CleanupAction> newCleanup) {
    Path table = pristine.table();
    Optional<Reference> reference =
        policy.branch().isEmpty() ? Optional.of(references(scenario, pristine, policy)) : Optional.empty();

    pristine.restore();
    Optional<CleanupResult> ours = CleanupContractTest.runOurs(policy, newCleanup.apply(table.toString()));
    TreeSet<String> ourFiles = PristineTable.filesOf(table);
    TableSnapshot kept = KeptManifests.assertEveryManifestReadsBack(table, scenario.writer()::read);
    for (Map.Entry<String, TableContent> entry : kept.entries().entrySet()) {
      assertThat(entry.getValue()).as("%s after our cleanup", entry.getKey()).isEqualTo(before.get(entry.getKey()));
    }
    if (!scenario.mainLineNamesOtherRoots()) {
      assertMainLineReadsWithTheSdk(table, kept);
    }
    if (reference.isEmpty()) {
      return;
    }
    if (reference.get().refused().isPresent()) {
      assertThat(ours).as("the references refused (%s); so must we", reference.get().refused().get()).isEmpty();
      assertThat(ourFiles).as("a refused run deletes nothing").isEqualTo(pristine.files());
      return;
    }
    assertThat(ours).as("our cleanup ran").isPresent();
    TreeSet<String> expected = reference.get().files();
    assertThat(ourFiles)
        .as("files left by our cleanup vs the references' (ours minus theirs: %s; theirs minus ours: %s)",
            minus(ourFiles, expected), minus(expected, ourFiles))
        .isEqualTo(expected);
  }

  /**
   * The official Java SDK reads the main line of these tables too (not their branches or a shallow
   * clone, whose relative base paths it resolves against the JVM's directory): every kept
   * main-line manifest reads in full through it, with the row count LanceDB read.
   */
  private static void assertMainLineReadsWithTheSdk(Path table, TableSnapshot readByLanceDb) {
    List<KeptManifests.VersionRef> main =
        KeptManifests.onDisk(table).stream().filter(ref -> ref.branch().isEmpty()).toList();
    for (Map.Entry<String, TableContent> entry : KeptManifests.readWithSdk(table, main).entries().entrySet()) {
      assertThat(entry.getValue()).as("%s through the SDK after our cleanup", entry.getKey())
          .isInstanceOfSatisfying(TableContent.Readable.class, sdk -> assertThat(sdk.rows())
              .isEqualTo(((TableContent.Readable) readByLanceDb.get(entry.getKey())).rows()));
    }
  }

  /**
   * What the two writers' own cleanups leave, LanceDB's (Rust Lance 12) and the SDK 7.0.0's, each
   * on the pristine table: where they disagree the side that keeps a file wins (a refusal keeps
   * everything), so the reference is the union of what they leave. The disagreements are printed
   * (docs/cleanup-semantics.md, section 11).
   */
  private static Reference references(LanceDbScenario scenario, PristineTable pristine, ContractPolicy policy) {
    Path table = pristine.table();
    pristine.restore();
    LanceDbWriter.CleanupOutcome lanceDb = scenario.writer().cleanup(policy.beforeTimestamp(), policy.deleteUnverified());
    assertThat(lanceDb.compacted()).as("LanceDB's cleanup compacted: the scenario must end compacted").isFalse();
    TreeSet<String> lanceDbFiles = PristineTable.filesOf(table);
    pristine.restore();
    OracleOutcome sdk = LanceOracle.cleanup(table, policy.toOracle());
    TreeSet<String> sdkFiles = PristineTable.filesOf(table);
    Optional<String> refused = lanceDb.refused()
        .or(() -> sdk instanceof OracleOutcome.Failed failed ? Optional.of(failed.message()) : Optional.empty());
    if (!lanceDbFiles.equals(sdkFiles)) {
      System.out.printf("LanceDB vs SDK 7.0.0 on %s, %s: only LanceDB keeps %s; only the SDK keeps %s%n",
          table.getFileName(), policy.label(), minus(lanceDbFiles, sdkFiles), minus(sdkFiles, lanceDbFiles));
    }
    TreeSet<String> union = new TreeSet<>(lanceDbFiles);
    union.addAll(sdkFiles);
    return new Reference(refused, union);
  }

  /** The references' verdict: a refusal, or the files a run must leave. */
  private record Reference(Optional<String> refused, TreeSet<String> files) {}

  private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> result = new TreeSet<>(a);
    result.removeAll(b);
    return result;
  }
}
