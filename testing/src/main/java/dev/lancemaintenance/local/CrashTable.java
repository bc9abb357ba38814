package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.FixtureRows;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.lance.Ref;

/**
 * The table the crash suites clean, on every engine: appends, a delete, an index, compaction, an
 * update, two old orphans and a young one (no branches or clones, so a byte copy is a faithful twin), and what
 * Lance's own cleanup of a twin leaves with {@link #cutoff}: its files, and the content of every
 * version it keeps (what must read back after any crash).
 */
public record CrashTable(
    Path pristine, Instant cutoff, TreeSet<String> pristineFiles, TreeSet<String> lanceFiles,
    Map<Long, TableContent> retained) {
  /** An unreferenced data file a day old: young, so Lance's cleanup keeps it. */
  public static final String YOUNG_ORPHAN = "data/orphan-young.lance";

  /** Writes the table under {@code dir} and cleans a twin with Lance. */
  public static CrashTable write(Path dir) throws InterruptedException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("pristine"));
    table.append(30);
    table.append(30);
    table.deleteWhere("id % 4 = 0");
    long indexed = table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    Instant cutoff = table.manifestTimestamp(indexed).plusMillis(1);
    Thread.sleep(5);
    table.append(30);
    table.compact();
    table.update(LanceTableFixture.firstId(1), 5);
    Instant old = Instant.now().minus(ConformanceScenarios.OLD);
    table.plant("data/orphan-old.lance", new byte[] {1, 2, 3}, old);
    table.plant("_transactions/orphan-old.txn", new byte[] {4, 5}, old);
    // Kept for its age by every run here; a resume decides it again at its own clock (CrashMatrixContract).
    table.plant(YOUNG_ORPHAN, new byte[] {6, 7}, Instant.now().minus(java.time.Duration.ofDays(1)));

    Path lanceTwin = dir.resolve("lance-twin");
    TableTwins.copy(table.root(), lanceTwin);
    LanceOracle.cleanup(lanceTwin, OraclePolicy.builder().beforeTimestamp(cutoff).build());
    Map<Long, TableContent> retained = new TreeMap<>();
    for (long version : LanceTableFixture.open(lanceTwin).versions()) {
      retained.put(version, ReadBack.read(lanceTwin, Ref.ofMain(version)));
    }
    return new CrashTable(table.root(), cutoff, files(table.root()), files(lanceTwin), retained);
  }

  /** The files of the table at {@code root}, table-relative. */
  public static TreeSet<String> files(Path root) {
    return new TreeSet<>(LanceTableFixture.open(root).listFiles());
  }

  /** The files Lance's cleanup removes. */
  public TreeSet<String> removedByLance() {
    TreeSet<String> removed = new TreeSet<>(pristineFiles);
    removed.removeAll(lanceFiles);
    return removed;
  }

  /** The manifests Lance's cleanup removes. */
  public TreeSet<String> expiredManifests() {
    TreeSet<String> manifests = new TreeSet<>();
    removedByLance().stream().filter(p -> p.endsWith(".manifest")).forEach(manifests::add);
    return manifests;
  }

  /**
   * What a run killed at {@code point} must leave: every version Lance keeps reads back; before any
   * delete, every file; before the manifests' turn, every expired manifest.
   */
  public void assertSafeAfterACrashAt(CrashPoint point, Path table) {
    assertThat(retainedVersionsReadBack(table)).as("every version Lance keeps reads back").isTrue();
    if (point.compareTo(CrashPoint.BEFORE_THE_FIRST_DELETE) <= 0) {
      assertThat(files(table)).as("files after a crash before any delete").isEqualTo(pristineFiles);
    }
    if (point.compareTo(CrashPoint.BEFORE_THE_MANIFESTS) <= 0) {
      assertThat(files(table)).as("expired manifests survive a crash before their turn").containsAll(expiredManifests());
    }
  }

  /** A finished run left what Lance's cleanup leaves, and every version Lance keeps reads back. */
  public void assertEndsLikeLance(Path table) {
    assertThat(files(table)).as("files vs Lance's cleanup").isEqualTo(lanceFiles);
    assertThat(retainedVersionsReadBack(table)).as("every version Lance keeps reads back").isTrue();
  }

  /** Every version Lance keeps reads back from {@code table} as it read from Lance's twin. */
  public boolean retainedVersionsReadBack(Path table) {
    return retained.entrySet().stream()
        .allMatch(e -> ReadBack.read(table, Ref.ofMain(e.getKey())).equals(e.getValue()));
  }
}
