package dev.lancemaintenance.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.ledger.Ledger;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.runs.RunState;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup_all}, {@code describe_storage_all} and {@code optimize_all} on every engine: a directory namespace of
 * small real tables written by the SDK, among them one refused over a tagged old version, one
 * directory that is not a table, one table whose manifests are corrupt, one deregistered table and
 * one directory the pattern leaves out. Each table must end exactly as the SDK's cleanup of its twin
 * with the same cutoff (after an optimize: as the SDK's compaction, then its cleanup), each table's
 * report must be the local engine's report of it alone, each failure must be in its own row, and a
 * dry run deletes nothing. An engine supplies {@link #cleanupAll}, {@link #describeAll} and {@link
 * #optimizeAll}: the calls as its users make them.
 */
public abstract class FleetContract {
  private static final TableStorageFactory STORAGE = HadoopTableStorage.factory(StorageConf.defaults());

  @TempDir static Path workDir;
  private static Path pristine;
  private static Instant cutoff;
  private static final AtomicInteger copies = new AtomicInteger();

  /** Runs {@code cleanup_all} of {@code rootUri} (default pattern) with these catalogue options, as text. */
  protected abstract List<TableOutcome> cleanupAll(String rootUri, Map<String, String> options) throws Exception;

  /** Runs {@code describe_storage_all} of {@code rootUri} (default pattern) with these policy options, as text. */
  protected abstract List<TableOutcome> describeAll(String rootUri, Map<String, String> options) throws Exception;

  /** Runs {@code optimize_all} of {@code rootUri} (default pattern) with these options of optimize, as text. */
  protected abstract List<TableOutcome> optimizeAll(String rootUri, Map<String, String> options) throws Exception;

  @BeforeAll
  public static void writeTheWarehouse() throws IOException {
    pristine = workDir.resolve("pristine");
    LanceTableFixture a = LanceTableFixture.create(pristine.resolve("a.lance"));
    a.append(10);
    a.append(10);
    a.deleteWhere("id < 5");
    LanceTableFixture b = LanceTableFixture.create(pristine.resolve("b.lance"));
    b.append(10);
    b.append(10);
    LanceTableFixture tagged = LanceTableFixture.create(pristine.resolve("tagged.lance"));
    tagged.append(10);
    tagged.append(10);
    tagged.tag("release", 1);
    LanceTableFixture gone = LanceTableFixture.create(pristine.resolve("gone.lance"));
    gone.append(10);
    gone.append(10);
    Files.writeString(pristine.resolve("gone.lance/" + DirectoryNamespace.DEREGISTERED), "");
    Files.createDirectories(pristine.resolve("broken.lance/data"));
    Files.writeString(pristine.resolve("broken.lance/data/left-behind.lance"), "not a table");
    LanceTableFixture corrupt = LanceTableFixture.create(pristine.resolve("corrupt.lance"));
    corrupt.append(10);
    try (var manifests = Files.list(pristine.resolve("corrupt.lance/_versions"))) {
      for (Path manifest : manifests.filter(p -> p.toString().endsWith(".manifest")).toList()) {
        Files.writeString(manifest, "not a manifest");
      }
    }
    Files.createDirectories(pristine.resolve("notes"));
    Files.writeString(pristine.resolve("notes/readme.txt"), "not matched by *.lance");
    cutoff = Instant.now().plusMillis(1);
  }

  /**
   * A fleet of two large tables cleaned daily ({@code mode => 'incremental'}, {@code
   * distribute_above => 3}, the four newest versions kept): the first {@code cleanup_all} defers
   * both to the engine's action, whose jobs fold the ledger and leave key snapshots; after two new
   * versions each (six versions, two new since the snapshot) the next runs both on the fleet's
   * workers, the local engine's run recorded and no cleanup job of the engine's; after five new
   * versions each they are deferred again. Then the ledger of {@code a.lance} is deleted (nothing
   * to forecast from: deferred) and every ledger file of {@code b.lance} is overwritten (its names
   * still forecast two new versions, so the worker runs it and the local engine, finding the
   * snapshot and the ledger unreadable, decodes every version). After every call each table holds
   * exactly what the SDK's cleanup of its twin leaves, and no run is left unfinished.
   *
   * @param engine the engine's name in run records of the driver's runs ({@code spark}, {@code flink})
   * @param cleanupJobs the engine's cleanup jobs (not the fleet's own job) since it was last asked
   */
  protected void dailyRunsOfLargeTablesGoToWorkersWhenFewVersionsAreNew(String engine, Callable<Integer> cleanupJobs)
      throws Exception {
    Path root = workDir.resolve("daily-" + engine);
    List<String> names = List.of("a.lance", "b.lance");
    for (String name : names) {
      LanceTableFixture table = LanceTableFixture.create(root.resolve(name));
      for (int commit = 0; commit < 8; commit++) {
        table.append(5);
      }
    }
    cleanupJobs.call();
    dailyFleetRun(root, Map.of("a.lance", engine, "b.lance", engine), "8 versions, no key snapshot");
    assertThat(cleanupJobs.call()).as("%s cleanup jobs of the first run", engine).isPositive();
    for (String name : names) {
      try (var files = Files.list(root.resolve(name).resolve(Ledger.DIR))) {
        assertThat(files.anyMatch(p -> p.getFileName().toString().startsWith("keys.")))
            .as("the key snapshot the jobs left in %s", name).isTrue();
      }
    }

    for (String name : names) {
      LanceTableFixture table = LanceTableFixture.open(root.resolve(name));
      table.append(5);
      table.deleteWhere("id % 3 = 0");
    }
    dailyFleetRun(root, Map.of("a.lance", "local", "b.lance", "local"), "6 versions, 2 new");
    assertThat(cleanupJobs.call()).as("%s cleanup jobs of a daily run with 2 new versions", engine).isZero();

    for (String name : names) {
      for (int commit = 0; commit < 5; commit++) {
        LanceTableFixture.open(root.resolve(name)).append(5);
      }
    }
    dailyFleetRun(root, Map.of("a.lance", engine, "b.lance", engine), "9 versions, 5 new");
    assertThat(cleanupJobs.call()).as("%s cleanup jobs of a daily run with 5 new versions", engine).isPositive();

    deleteTree(root.resolve("a.lance").resolve(Ledger.DIR));
    try (var files = Files.list(root.resolve("b.lance").resolve(Ledger.DIR))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.writeString(file, "corrupt");
      }
    }
    for (String name : names) {
      LanceTableFixture.open(root.resolve(name)).append(5);
      LanceTableFixture.open(root.resolve(name)).append(5);
    }
    dailyFleetRun(root, Map.of("a.lance", engine, "b.lance", "local"), "6 versions, 2 new, a's ledger deleted, b's corrupt");
    assertThat(cleanupJobs.call()).as("%s cleanup jobs of a.lance, whose ledger is gone", engine).isPositive();
  }

  /**
   * One daily {@code cleanup_all} of {@code root}, compared table by table with the SDK's cleanup of
   * a twin; {@code engines}: which engine each table's newest run record must name.
   */
  private void dailyFleetRun(Path root, Map<String, String> engines, String when) throws Exception {
    Instant now = Instant.now().plusSeconds(60);
    Path twins = workDir.resolve("daily-twins-" + copies.incrementAndGet());
    TableTwins.copy(root, twins);
    Map<String, TableOutcome> rows = byName(cleanupAll(root.toUri().toString(), Map.of("older_than", now.toString(),
        "retain_last", "4", "mode", "incremental", "distribute_above", "3", "dry_run", "false")));
    for (Map.Entry<String, String> table : engines.entrySet()) {
      String name = table.getKey();
      TableOutcome row = rows.get(name);
      assertThat(row.status()).as("%s, %s (%s)", name, when, row.error()).isEqualTo(TableStatus.OK);
      long latest = LanceTableFixture.open(twins.resolve(name)).latestVersion();
      assertThat(LanceOracle.cleanup(twins.resolve(name),
          OraclePolicy.builder().beforeVersion(latest - 3).beforeTimestamp(now).build()))
          .isInstanceOf(OracleOutcome.Removed.class);
      assertThat(files(root.resolve(name))).as("files of %s, %s, against the SDK's cleanup of its twin", name, when)
          .isEqualTo(files(twins.resolve(name)));
      try (TableStorage storage = STORAGE.open(TableLocation.of(root.resolve(name).toUri().toString()))) {
        List<RunEntry> history = new RunRecords(storage).history(100, Clock.systemUTC());
        assertThat(history.get(0).start().engine()).as("the engine that ran %s, %s", name, when).isEqualTo(table.getValue());
        assertThat(history).as("runs of %s after %s", name, when).allSatisfy(run -> assertThat(run.state())
            .isEqualTo(RunState.FINISHED));
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path path : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }

  /** A directory for an engine's own tests. */
  protected static Path workDir() {
    return workDir;
  }

  private static Path copy() {
    Path root = workDir.resolve("warehouse-" + copies.incrementAndGet());
    TableTwins.copy(pristine, root);
    return root;
  }

  private static Map<String, TableOutcome> byName(List<TableOutcome> outcomes) {
    return outcomes.stream().collect(Collectors.toMap(o -> Path.of(o.table().replaceFirst("^file:", "")).getFileName().toString(),
        Function.identity()));
  }

  private static List<String> files(Path dir) {
    return LanceTableFixture.open(dir).listFiles();
  }

  private static List<String> allFiles(Path dir) {
    try (var walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  public void everyTableEndsAsTheSdkCleanupOfItsTwinAndEachFailureStaysInItsRow() throws Exception {
    Path root = copy();
    Path twins = copy();
    OraclePolicy policy = OraclePolicy.builder().beforeTimestamp(cutoff).build();
    List<String> brokenBefore = allFiles(root.resolve("broken.lance"));
    List<String> goneBefore = allFiles(root.resolve("gone.lance"));
    List<String> taggedBefore = files(root.resolve("tagged.lance"));
    List<String> corruptBefore = allFiles(root.resolve("corrupt.lance"));

    Map<String, TableOutcome> rows = byName(cleanupAll(root.toUri().toString(),
        Map.of("older_than", cutoff.toString(), "dry_run", "false")));

    assertThat(rows.keySet()).as("tables found under the root")
        .containsExactlyInAnyOrder("a.lance", "b.lance", "broken.lance", "corrupt.lance", "gone.lance", "tagged.lance");
    for (String table : List.of("a.lance", "b.lance")) {
      OracleOutcome sdk = LanceOracle.cleanup(twins.resolve(table), policy);
      assertThat(rows.get(table).status()).as("status of %s (%s)", table, rows.get(table).error()).isEqualTo(TableStatus.OK);
      assertThat(files(root.resolve(table))).as("files of %s against the SDK's cleanup of its twin", table)
          .isEqualTo(files(twins.resolve(table)));
      assertThat(rows.get(table).counters().get("old_versions")).as("old_versions of %s", table)
          .isEqualTo(sdk.stats().oldVersions());
      assertThat(rows.get(table).counters().get("bytes_removed")).as("bytes_removed of %s", table)
          .isEqualTo(sdk.stats().bytesRemoved());
    }
    assertThat(LanceOracle.cleanup(twins.resolve("tagged.lance"), policy)).as("the SDK on the tagged twin")
        .isInstanceOf(OracleOutcome.Failed.class);
    assertThat(rows.get("tagged.lance").status()).as("tagged.lance").isEqualTo(TableStatus.REFUSED);
    assertThat(rows.get("tagged.lance").error()).contains("release -> v1").contains("tagged.lance");
    assertThat(files(root.resolve("tagged.lance"))).as("files of the refused table").isEqualTo(taggedBefore);
    assertThat(rows.get("broken.lance").status()).as("broken.lance").isEqualTo(TableStatus.FAILED);
    assertThat(rows.get("broken.lance").error()).contains("broken.lance").contains("not a Lance table");
    assertThat(allFiles(root.resolve("broken.lance"))).as("files of the directory that is no table").isEqualTo(brokenBefore);
    assertThat(rows.get("corrupt.lance").status()).as("corrupt.lance").isEqualTo(TableStatus.FAILED);
    assertThat(rows.get("corrupt.lance").error()).contains("corrupt.lance");
    assertThat(allFiles(root.resolve("corrupt.lance"))).as("files of the corrupt table: none deleted (its lease may stay)")
        .containsAll(corruptBefore);
    assertThat(rows.get("gone.lance").status()).as("gone.lance").isEqualTo(TableStatus.SKIPPED);
    assertThat(allFiles(root.resolve("gone.lance"))).as("files of the deregistered table").isEqualTo(goneBefore);
  }

  @Test
  public void eachTablesReportIsItsReportAloneAndEachFailureStaysInItsRow() throws Exception {
    Path root = copy();
    List<String> before = allFiles(root);
    Map<String, String> policy = Map.of("older_than", cutoff.toString(), "error_if_tagged_old_versions", "false");

    Map<String, TableOutcome> rows = byName(describeAll(root.toUri().toString(), policy));

    assertThat(rows.keySet()).as("tables found under the root")
        .containsExactlyInAnyOrder("a.lance", "b.lance", "broken.lance", "corrupt.lance", "gone.lance", "tagged.lance");
    for (String table : List.of("a.lance", "b.lance", "tagged.lance")) {
      TableLocation location = TableLocation.of(root.resolve(table).toUri().toString());
      Map<String, Long> alone = new LocalStorageReport(location, STORAGE)
          .report(CleanupOption.applyTo(new LocalCleanupAction(location, STORAGE, Clock.systemUTC()),
              CleanupOption.parseAll(policy), Instant.now()).request())
          .totals();
      assertThat(rows.get(table).status()).as("status of %s (%s)", table, rows.get(table).error()).isEqualTo(TableStatus.OK);
      assertThat(rows.get(table).counters()).as("the totals of %s against its report alone", table).isEqualTo(alone);
    }
    assertThat(rows.get("a.lance").counters().get("reclaimable_bytes")).as("a.lance frees its old versions").isPositive();
    assertThat(rows.get("corrupt.lance").status()).as("corrupt.lance").isEqualTo(TableStatus.FAILED);
    assertThat(rows.get("corrupt.lance").error()).contains("corrupt.lance");
    assertThat(rows.get("broken.lance").status()).as("broken.lance").isEqualTo(TableStatus.FAILED);
    assertThat(rows.get("gone.lance").status()).as("gone.lance").isEqualTo(TableStatus.SKIPPED);
    assertThat(allFiles(root)).as("files under the root after the reports").isEqualTo(before);
  }

  /**
   * {@code optimize_all} with a window of 0 s: each table as LanceDB's optimize leaves it, the
   * SDK's compaction then its cleanup with a cutoff after compacting (the files each side writes
   * have fresh names, so: the same original files kept, as many new files of each kind, one version
   * left, the same rows); the tagged table refused before compacting, the corrupt one failed with
   * nothing deleted, each in its own row.
   */
  @Test
  public void optimizeAllEndsEachTableAsTheSdksCompactionAndCleanupAndEachFailureStaysInItsRow() throws Exception {
    Path root = copy();
    Path twins = copy();
    List<String> taggedBefore = files(root.resolve("tagged.lance"));
    List<String> corruptBefore = allFiles(root.resolve("corrupt.lance"));
    List<String> brokenBefore = allFiles(root.resolve("broken.lance"));

    Map<String, TableOutcome> rows = byName(optimizeAll(root.toUri().toString(), Map.of("older_than", "0s", "dry_run", "false")));

    assertThat(rows.keySet()).as("tables found under the root")
        .containsExactlyInAnyOrder("a.lance", "b.lance", "broken.lance", "corrupt.lance", "gone.lance", "tagged.lance");
    for (String table : List.of("a.lance", "b.lance")) {
      LanceTableFixture ours = LanceTableFixture.open(root.resolve(table));
      LanceTableFixture theirs = LanceTableFixture.open(twins.resolve(table));
      List<String> before = files(twins.resolve(table));
      theirs.compact();
      assertThat(LanceOracle.cleanup(twins.resolve(table), OraclePolicy.builder().beforeTimestamp(Instant.now().plusMillis(1)).build()))
          .as("the SDK's cleanup of %s's twin after its compaction", table).isNotInstanceOf(OracleOutcome.Failed.class);
      TableOutcome row = rows.get(table);
      assertThat(row.status()).as("status of %s (%s)", table, row.error()).isEqualTo(TableStatus.OK);
      assertThat(kept(before, ours)).as("original files of %s kept, against the SDK's", table).isEqualTo(kept(before, theirs));
      assertThat(newFilesByKind(before, ours)).as("new files of %s by directory, against the SDK's", table)
          .isEqualTo(newFilesByKind(before, theirs));
      assertThat(ours.versions()).as("versions of %s left", table).containsExactly(ours.latestVersion());
      assertThat(ours.countRows()).as("rows of %s", table).isEqualTo(theirs.countRows());
      assertThat(row.counters().get("fragments_removed")).as("fragments_removed of %s", table).isEqualTo(2L);
      assertThat(row.counters().get("old_versions")).as("old_versions of %s", table).isEqualTo(ours.latestVersion() - 1);
    }
    assertThat(rows.get("tagged.lance").status()).as("tagged.lance").isEqualTo(TableStatus.REFUSED);
    assertThat(rows.get("tagged.lance").error()).contains("release -> v1").contains("tagged.lance");
    assertThat(files(root.resolve("tagged.lance"))).as("files of the refused table").isEqualTo(taggedBefore);
    assertThat(rows.get("corrupt.lance").status()).as("corrupt.lance").isEqualTo(TableStatus.FAILED);
    assertThat(rows.get("corrupt.lance").error()).contains("corrupt.lance");
    assertThat(allFiles(root.resolve("corrupt.lance"))).as("files of the corrupt table: none deleted (its lease may stay)")
        .containsAll(corruptBefore);
    assertThat(rows.get("broken.lance").status()).as("broken.lance").isEqualTo(TableStatus.FAILED);
    assertThat(allFiles(root.resolve("broken.lance"))).as("files of the directory that is no table").isEqualTo(brokenBefore);
    assertThat(rows.get("gone.lance").status()).as("gone.lance").isEqualTo(TableStatus.SKIPPED);
  }

  private static List<String> kept(List<String> before, LanceTableFixture table) {
    return table.listFiles().stream().filter(before::contains).toList();
  }

  /** Files a run wrote (not in {@code before}), counted by top directory. */
  private static Map<String, Long> newFilesByKind(List<String> before, LanceTableFixture table) {
    return table.listFiles().stream().filter(path -> !before.contains(path))
        .collect(Collectors.groupingBy(path -> path.substring(0, path.indexOf('/')), java.util.TreeMap::new, Collectors.counting()));
  }

  @Test
  public void aDryRunOfTheFleetCountsWhatWouldGoAndDeletesNothing() throws Exception {
    Path root = copy();
    Path twins = copy();
    List<String> before = allFiles(root);

    Map<String, TableOutcome> rows = byName(cleanupAll(root.toUri().toString(),
        Map.of("older_than", cutoff.toString(), "dry_run", "true")));

    assertThat(allFiles(root)).as("files under the root after a dry run").isEqualTo(before);
    OracleOutcome sdk = LanceOracle.cleanup(twins.resolve("a.lance"), OraclePolicy.builder().beforeTimestamp(cutoff).build());
    assertThat(sdk.stats().oldVersions()).as("versions the SDK removes from a.lance's twin").isPositive();
    assertThat(rows.get("a.lance").counters().get("old_versions")).as("old_versions a dry run of a.lance reports")
        .isEqualTo(sdk.stats().oldVersions());
    assertThat(rows.get("a.lance").counters().get("bytes_removed")).as("bytes_removed a dry run of a.lance reports")
        .isEqualTo(sdk.stats().bytesRemoved());
    assertThat(rows.get("tagged.lance").status()).as("tagged.lance in a dry run").isEqualTo(TableStatus.REFUSED);
  }
}
