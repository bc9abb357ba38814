package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table carrying a ledger under {@code _maintenance/ledger/} is an ordinary table to the official
 * SDK 7.0.0 (it reads, appends, deletes, compacts and cleans with {@code delete_unverified}, and
 * never touches the ledger, even when its files are weeks old), and to our own cleanup, which
 * neither counts nor deletes it: both remove exactly what they remove from the same table without it.
 */
class LedgerUnderSdkIT {
  private static final Instant WEEKS_AGO = Instant.now().minus(Duration.ofDays(30));

  @TempDir Path work;

  /** Appends, a BTREE index, a delete, a compaction: files of every kind, all 30 days old. */
  private Path tableWithHistory(String name) {
    LanceTableFixture table = LanceTableFixture.create(work.resolve(name));
    table.append(20);
    table.append(20);
    table.createScalarIndex("id", ScalarIndexKind.BTREE);
    table.deleteWhere("id % 3 = 0");
    table.compact();
    table.append(5);
    FileTimes.shiftAll(table.root(), Duration.ofDays(-30));
    return table.root();
  }

  /** A committed ledger plus a crashed writer's segment and a stray file, all 30 days old. */
  private static Map<String, byte[]> writeLedger(Path root) {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(root.toString()), StorageConf.defaults())) {
      Ledger ledger = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC());
      LedgerElement data = new LedgerElement("data/x.lance", FileKind.DATA, true);
      for (long v = 1; v <= 3; v++) {
        LedgerAppends.append(ledger, ledger.read(), ledger.segment(
            List.of(new LedgerVersion(v, "_versions/" + v + ".manifest", 10, v, v)),
            v == 1 ? List.of(new LedgerSegment.Open(data, 1)) : List.of(), List.of()), java.util.Set.of(1L, 2L, 3L));
      }
      storage.write(Ledger.DIR + "/seg-0000000000000000004-crashed.seg", new byte[] {1, 2, 3});
      storage.write(Ledger.DIR + "/data/stray.lance", new byte[] {4});
      storage.write(Ledger.DIR + "/_transactions/stray.txn", new byte[] {5});
    }
    for (String path : ledgerFiles(root).keySet()) {
      FileTimes.setModificationTime(root.resolve(path), WEEKS_AGO);
    }
    return ledgerFiles(root);
  }

  private static Map<String, byte[]> ledgerFiles(Path root) {
    Map<String, byte[]> files = new TreeMap<>();
    Path dir = root.resolve(Ledger.DIR);
    if (!Files.exists(dir)) {
      return files;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path file : walk.filter(Files::isRegularFile).toList()) {
        files.put(relative(root, file), Files.readAllBytes(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static List<String> lanceFiles(Path root) {
    List<String> files = new ArrayList<>();
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isRegularFile).map(p -> relative(root, p))
          .filter(p -> !p.startsWith("_maintenance/")).sorted().forEach(files::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace('\\', '/');
  }

  @Test
  void theSdkWritesCompactsAndCleansATableWithALedgerAndNeverTouchesIt() {
    Path table = tableWithHistory("sdk");
    Map<String, byte[]> ledger = writeLedger(table);

    LanceTableFixture sdk = LanceTableFixture.open(table);
    long rows = sdk.countRows();
    sdk.append(7);
    sdk.deleteWhere("id % 5 = 0");
    sdk.compact();
    assertThat(sdk.countRows()).as("reads and writes through the ledger").isBetween(1L, rows + 6);

    Path twin = work.resolve("sdk-twin");
    TableTwins.copy(table, twin);
    TableTwins.deleteRecursively(twin.resolve("_maintenance"));
    OraclePolicy everythingOld = OraclePolicy.builder().beforeTimestamp(Instant.now().plusSeconds(60)).deleteUnverified(true).build();
    OracleStats withLedger = LanceOracle.cleanup(table, everythingOld).stats();
    OracleStats withoutLedger = LanceOracle.cleanup(twin, everythingOld).stats();

    assertThat(ledgerFiles(table)).as("the ledger, byte for byte, after SDK writes, compaction and cleanup")
        .containsOnlyKeys(ledger.keySet())
        .allSatisfy((path, bytes) -> assertThat(bytes).as(path).isEqualTo(ledger.get(path)));
    for (String path : ledger.keySet()) {
      assertThat(FileTimes.modificationTime(table.resolve(path))).as("%s untouched", path).isEqualTo(WEEKS_AGO);
    }
    assertThat(withLedger).as("the SDK's counters with and without a ledger").isEqualTo(withoutLedger);
    assertThat(lanceFiles(table)).as("Lance's files left with and without a ledger").isEqualTo(lanceFiles(twin));
    assertThat(withLedger.oldVersions()).as("the SDK did clean").isGreaterThan(0);
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void ourCleanupNeitherCountsNorDeletesTheLedger() {
    Path table = tableWithHistory("ours");
    Path twin = work.resolve("ours-twin");
    TableTwins.copy(table, twin);
    Map<String, byte[]> ledger = writeLedger(table);

    CleanupResult withLedger = everythingOldUnverified(table);
    CleanupResult withoutLedger = everythingOldUnverified(twin);

    assertThat(ledgerFiles(table)).as("the ledger after our cleanup")
        .containsOnlyKeys(ledger.keySet())
        .allSatisfy((path, bytes) -> assertThat(bytes).as(path).isEqualTo(ledger.get(path)));
    assertThat(withLedger.counters()).as("counters with and without a ledger").isEqualTo(withoutLedger.counters());
    assertThat(lanceFiles(table)).as("Lance's files left").isEqualTo(lanceFiles(twin));
    assertThat(withLedger.counters().oldVersions()).as("the run did clean").isGreaterThan(0);
  }

  private static CleanupResult everythingOldUnverified(Path root) {
    return new LocalCleanupAction(TableLocation.of(root.toString()), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .beforeTimestamp(Instant.now().plusSeconds(60))
        .deleteUnverified(true)
        .allowShortRetention(true)
        .execute();
  }
}
