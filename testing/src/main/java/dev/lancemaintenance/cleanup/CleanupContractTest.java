package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.Scenario;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cleanup contract every engine must meet: on real tables written by the official Lance
 * library, with the same policy, our cleanup leaves exactly the files the SDK's {@code
 * cleanupWithPolicy} leaves, reports the same counters, refuses where it refuses, and every manifest
 * left on disk, of main and of every branch, reads back in full with the content it had before
 * ({@link KeptManifests}).
 *
 * <p>Each case restores the scenario's pristine table at its original path and runs ours there:
 * branch and clone manifests name their parent by absolute path, so the same path is the only
 * faithful twin. The SDK's side of a case (its cleanup of the same pristine table, the files it
 * left and their digests, and the full read-back of every manifest it left) depends only on the
 * scenario and the policy, so it runs once per build, in whichever module needs it first, and the
 * other modules reuse it ({@link ReferenceRuns}). Our files are compared with the SDK's by name
 * first; when every file we left also has the bytes of the file the SDK left, our table is the
 * SDK's byte for byte at the same path, so it reads back exactly as the SDK's did, and the read is
 * not repeated; otherwise it is read back in full as before. Engines subclass this with their own
 * action.
 */
public abstract class CleanupContractTest {
  @TempDir static Path workDir;

  private static ReferenceRuns references;

  /** A cleanup action of the engine under test, with no policy set yet. */
  protected abstract CleanupAction newCleanup(String tableUri);

  /**
   * The scenarios (by key) and the policies each is cleaned with: all of them, or the subset a
   * line that is not primary runs ({@link ConformanceScope}).
   */
  protected Map<String, Function<Path, Scenario>> scenarios() {
    return ConformanceScope.current().scenarios();
  }

  @TestFactory
  Stream<DynamicContainer> leavesTheSameFilesAsLanceCleanup() {
    references = ReferenceRuns.open(workDir.resolve("references"));
    return scenarios().entrySet().stream().map(entry -> {
      ReferenceRuns.Prepared scenario = references.scenario(entry.getKey(), entry.getValue(), CleanupContractTest::policiesFor);
      List<ContractPolicy> every = scenario.policies();
      return DynamicContainer.dynamicContainer(
          entry.getKey(),
          policies(every).stream()
              .map(policy -> DynamicTest.dynamicTest(policy.label(), () -> check(scenario, every.indexOf(policy), policy))));
    });
  }

  @AfterAll
  static void releaseReferences() {
    if (references != null) {
      references.close();
      references = null;
    }
  }

  /** Of every policy of a scenario, those this build runs: narrowed to the {@link ConformanceScope}. */
  protected List<ContractPolicy> policies(List<ContractPolicy> every) {
    return ConformanceScope.current().policies(every);
  }

  /**
   * Whether the engine's incremental runs leave a key snapshot and decide from it the next day
   * (docs/ledger.md, section 12): the local engine's do; Spark's and Flink's must leave none, since
   * they take the ledger's path.
   */
  protected boolean decidesFromKeySnapshots() {
    return false;
  }

  /** Whether the tables LanceDB wrote run too: on the primary lines; the others leave them to those. */
  protected boolean withLanceDbTables() {
    return ConformanceScope.current().withLanceDbTables();
  }

  static List<ContractPolicy> policiesFor(Scenario scenario) {
    List<ContractPolicy> policies = new ArrayList<>();
    scenario.instants().forEach((label, instant) -> policies.add(ContractPolicy.before(label, instant)));
    ContractPolicy all = ContractPolicy.before("everything old", Instant.now().plus(Duration.ofMinutes(1)));
    policies.add(all);
    policies.add(all.withDeleteUnverified());
    policies.add(all.withoutTaggedError());
    scenario.versions().forEach((label, version) -> policies.add(all.withBeforeVersion(version)));
    policies.addAll(branchPolicies(scenario, all));
    return policies;
  }

  /**
   * For a scenario with branches: each branch cleaned on its own, and the main line with {@code
   * clean_referenced_branches} at each cutoff (the flag off is the cases above).
   */
  static List<ContractPolicy> branchPolicies(Scenario scenario, ContractPolicy all) {
    List<String> branches = scenario.related().values().stream()
        .filter(line -> line.root().equals(scenario.table().root()))
        .flatMap(line -> line.branchName().stream())
        .sorted()
        .toList();
    List<ContractPolicy> policies = new ArrayList<>();
    if (branches.isEmpty()) {
      return policies;
    }
    branches.forEach(branch -> policies.add(all.onBranch(branch)));
    policies.add(all.withCleanReferencedBranches());
    scenario.instants().forEach((label, instant) ->
        policies.add(ContractPolicy.before(label, instant).withCleanReferencedBranches()));
    return policies;
  }

  private void check(ReferenceRuns.Prepared scenario, int index, ContractPolicy policy) {
    PristineTable pristine = scenario.pristine();
    Path table = pristine.table();
    ReferenceRuns.Reference reference = references.reference(scenario, index, () -> runSdk(scenario, policy));

    pristine.restore();
    Optional<CleanupResult> ours = runOurs(policy, newCleanup(table.toString()));
    TreeSet<String> ourFiles = PristineTable.filesOf(table);

    if (reference.outcome() instanceof OracleOutcome.Failed failed) {
      assertThat(ours).as("Lance refused (%s); so must we", failed.message()).isEmpty();
      assertThat(ourFiles).as("a refused run deletes nothing").isEqualTo(pristine.files());
      if (!sameBytes(table, ourFiles, reference)) {
        KeptManifests.assertEveryManifestReadsBack(table);
      }
      return;
    }
    TreeSet<String> referenceFiles = reference.files();
    assertThat(ours).as("Lance cleaned up; so must we").isPresent();
    assertThat(ourFiles)
        .as("files left by our cleanup vs Lance's (ours minus Lance's: %s; Lance's minus ours: %s)",
            minus(ourFiles, referenceFiles), minus(referenceFiles, ourFiles))
        .isEqualTo(referenceFiles);
    assertThat(countersOf(ours.get())).as("counters").isEqualTo(reference.outcome().stats());
    if (!sameBytes(table, ourFiles, reference)) {
      assertReadsBackAsBefore(scenario.before(), KeptManifests.assertEveryManifestReadsBack(table));
    }
  }

  /**
   * The SDK's cleanup of the pristine table with {@code policy}, and the check that every manifest
   * it left reads back in full (as before, unless it refused; tags name versions whose manifests
   * are among these, so this covers them too).
   */
  private static ReferenceRuns.Reference runSdk(ReferenceRuns.Prepared scenario, ContractPolicy policy) {
    PristineTable pristine = scenario.pristine();
    Path table = pristine.table();
    pristine.restore();
    OracleOutcome outcome = policy.branch().isPresent()
        ? LanceOracle.cleanupBranch(table, policy.branch().get(), policy.toOracle())
        : LanceOracle.cleanup(table, policy.toOracle());
    TableSnapshot kept = KeptManifests.assertEveryManifestReadsBack(table);
    if (outcome instanceof OracleOutcome.Removed) {
      assertReadsBackAsBefore(scenario.before(), kept);
    }
    return new ReferenceRuns.Reference(outcome, ReferenceRuns.digests(table, PristineTable.filesOf(table)));
  }

  /** Whether every file we left has the bytes of the file of that name the SDK left. */
  private static boolean sameBytes(Path table, TreeSet<String> ourFiles, ReferenceRuns.Reference reference) {
    return ReferenceRuns.digests(table, ourFiles).equals(reference.filesLeft());
  }

  /** Our cleanup with {@code policy}; empty when it refused. */
  static Optional<CleanupResult> runOurs(ContractPolicy policy, CleanupAction cleanup) {
    try {
      return Optional.of(policy.applyTo(cleanup).execute());
    } catch (MaintenanceException refused) {
      return Optional.empty();
    }
  }

  /**
   * The same contract on tables written by the second real writer, LanceDB ({@link
   * LanceDbContract}): same files left as LanceDB's and the SDK's own cleanups (the side that keeps
   * a file wins), and every manifest left reads back in full through LanceDB.
   */
  @TestFactory
  Stream<DynamicContainer> leavesWhatLanceDbAndTheSdkLeaveOnTablesLanceDbWrote() {
    if (!withLanceDbTables()) {
      return Stream.empty();
    }
    return LanceDbContract.cases(workDir.resolve("lancedb"), this::newCleanup, decidesFromKeySnapshots());
  }

  private static void assertReadsBackAsBefore(TableSnapshot before, TableSnapshot after) {
    for (Map.Entry<String, TableContent> entry : after.entries().entrySet()) {
      assertThat(entry.getValue())
          .as("%s after the cleanup", entry.getKey())
          .isEqualTo(before.get(entry.getKey()));
    }
  }

  /** Our counters in the shape of the SDK's RemovalStats. */
  public static OracleStats countersOf(CleanupResult result) {
    CleanupCounters c = result.counters();
    return new OracleStats(
        c.bytesRemoved(),
        c.oldVersions(),
        c.dataFilesRemoved(),
        c.transactionFilesRemoved(),
        c.indexFilesRemoved(),
        c.deletionFilesRemoved());
  }

  private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> result = new TreeSet<>(a);
    result.removeAll(b);
    return result;
  }
}
