package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.ledger.KeySnapshots;
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

  /**
   * One container per scenario, one case per policy, cleaned by the engine's {@code newCleanup};
   * and {@link #dayAfterDay}, where the engine's runs after the first decide from the key snapshot
   * exactly when {@code decidesFromKeySnapshots}.
   */
  static Stream<DynamicContainer> cases(Path workDir, Function<String, CleanupAction> newCleanup, boolean decidesFromKeySnapshots) {
    return Stream.concat(perScenario(workDir, newCleanup), Stream.of(DynamicContainer.dynamicContainer("lancedb day after day",
        Stream.of(DynamicTest.dynamicTest("three incremental runs",
            () -> dayAfterDay(workDir.resolve("daily"), newCleanup, decidesFromKeySnapshots))))));
  }

  private static Stream<DynamicContainer> perScenario(Path workDir, Function<String, CleanupAction> newCleanup) {
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
        policy.branch().isEmpty() ? Optional.of(references(scenario.writer(), pristine, policy)) : Optional.empty();

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
   * Three daily runs in incremental mode on a table LanceDB writes between them (appends, deletes, an
   * index, each day ending compacted), without branches; each leaves what LanceDB's and the SDK's
   * cleanups leave on the table as it was, and every kept version reads back as before. An engine
   * that {@code decidesFromKeySnapshots} (the local engine, docs/ledger.md section 12) leaves a key
   * snapshot on the first day and decides from it on the second and third: their new versions are
   * appended to the ledger as a segment whose first version is whole, which only that path writes
   * (section 12.4). Any other engine leaves no snapshot at all.
   */
  private static void dayAfterDay(Path workDir, Function<String, CleanupAction> newCleanup, boolean decidesFromKeySnapshots) {
    LanceDbWriter writer = LanceDbWriter.at(workDir, "daily");
    writer.recipe().append(20).append(20).delete("id % 10 = 0").index("id", "btree").append(10).compact().write();
    for (int day = 1; day <= 3; day++) {
      String when = "day " + day;
      if (day > 1) {
        writer.recipe().append(10).delete("id % 7 = " + day).append(10).compact().write();
      }
      Path table = writer.root();
      PristineTable pristine = PristineTable.keep(table, workDir.resolve("pristine-" + day));
      TableSnapshot before = writer.readBack();
      ContractPolicy policy = ContractPolicy.before("everything old", Instant.now().plus(Duration.ofMinutes(1)));
      Reference reference = references(writer, pristine, policy);
      assertThat(reference.refused()).as("%s: the references cleaned", when).isEmpty();
      pristine.restore();
      Optional<CleanupResult> ours = CleanupContractTest.runOurs(policy, newCleanup.apply(table.toString()).markMode(MarkMode.INCREMENTAL));
      assertThat(ours).as("%s: our cleanup ran", when).isPresent();
      TreeSet<String> ourFiles = PristineTable.filesOf(table);
      assertThat(ourFiles).as("%s: files left by our cleanup vs the references' (ours minus theirs: %s; theirs minus ours: %s)",
          when, minus(ourFiles, reference.files()), minus(reference.files(), ourFiles)).isEqualTo(reference.files());
      TableSnapshot kept = KeptManifests.assertEveryManifestReadsBack(table, writer::read);
      kept.entries().forEach((version, content) -> assertThat(content).as("%s: %s", when, version).isEqualTo(before.get(version)));
      assertThat(KeySnapshots.leftBeside(table)).as("%s: a key snapshot left", when).isEqualTo(decidesFromKeySnapshots);
      if (day > 1 && decidesFromKeySnapshots) {
        assertThat(KeySnapshots.newestSegmentHasItsFirstVersionWhole(table))
            .as("%s decided from the key snapshot (its new versions appended without a fold)", when).isTrue();
      }
    }
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
  private static Reference references(LanceDbWriter writer, PristineTable pristine, ContractPolicy policy) {
    Path table = pristine.table();
    pristine.restore();
    LanceDbWriter.CleanupOutcome lanceDb = writer.cleanup(policy.beforeTimestamp(), policy.deleteUnverified());
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
