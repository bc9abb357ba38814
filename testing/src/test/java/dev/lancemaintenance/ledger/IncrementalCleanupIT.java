package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The local engine runs the thirty days of maintenance with the ledger, and, since reading and
 * writing the ledger is the same code on every engine, also what the ledger survives: deleted, cut
 * short, corrupted, left half-written by a killed run, copied from another table, refused by the
 * store. Every run after the damage is still exact.
 */
class IncrementalCleanupIT extends IncrementalCleanupContract {
  @Override
  protected CleanupAction newCleanup(String tableUri, TableStorageFactory storage) {
    return new LocalCleanupAction(TableLocation.of(tableUri), storage, Clock.systemUTC());
  }

  @Test
  void whateverHappensToTheLedgerTheRunsLeaveWhatTheSdkLeaves() {
    Path root = work.resolve("damaged");
    LanceTableFixture table = LanceTableFixture.create(root);
    int day = 0;
    for (Consumer<LanceTableFixture> commits : days().subList(0, 8)) {
      commits.accept(table);
      cleanAndCompare(table, new Policy(1 + day % 3), "day " + ++day);
    }
    List<Consumer<Path>> damages = List.of(
        IncrementalCleanupIT::deleteLedger,
        IncrementalCleanupIT::cutHeadCommitShort,
        IncrementalCleanupIT::flipAByteOfASegment,
        IncrementalCleanupIT::leaveAKilledWritersFiles,
        this::copyAnotherTablesLedger);
    for (Consumer<Path> damage : damages) {
      damage.accept(root);
      table.append(5);
      cleanAndCompare(table, new Policy(2), "damaged ledger, run " + ++day);
      cleanAndCompare(table, new Policy(1), "after the rebuild, run " + day);
    }
  }

  @Test
  void aStoreThatRefusesTheLedgerStillCleansAsAFullRun() throws IOException {
    LanceTableFixture table = LanceTableFixture.create(work.resolve("refusing"));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    table.compact();
    Path twin = work.resolve("refusing-twin");
    TableTwins.copy(table.root(), twin);
    // A file where the ledger's directory should be: every ledger write fails.
    Files.createDirectories(table.root().resolve("_maintenance"));
    Files.write(table.root().resolve(Ledger.DIR), new byte[] {0});
    long latest = table.latestVersion();
    CleanupResult incremental = run(table.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), latest);
    CleanupResult full = run(twin, MarkMode.FULL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), latest);
    assertThat(incremental.counters()).as("what the run removed").isEqualTo(full.counters());
    assertThat(lanceFiles(table.root())).isEqualTo(lanceFiles(twin));
    assertThat(full.counters().oldVersions()).isGreaterThan(0);
  }

  @Test
  void aLedgerReadBeforeThePlanIsCheckedAgainstThePlansListing() throws IOException {
    // The local engine reads and folds the ledger beside the plan's listing of _versions/
    // (LedgerReadAhead). Here every manifest is touched just before that listing, so the ledger,
    // read before or during it, summarised files that the listing no longer shows as they were:
    // the run must find the mismatch against the plan's own listing and mark in full.
    LanceTableFixture table = LanceTableFixture.create(work.resolve("read-ahead"));
    for (int i = 0; i < 4; i++) {
      table.append(5);
    }
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    run(table.root(), MarkMode.INCREMENTAL, plain, new Policy(3), table.latestVersion());
    table.append(5);
    table.append(5);
    Path twin = work.resolve("read-ahead-twin");
    TableTwins.copy(table.root(), twin);
    AtomicBoolean touched = new AtomicBoolean();
    Path versions = table.root().resolve("_versions");
    TableStorageFactory touching = location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.equals("_versions") && touched.compareAndSet(false, true)) {
          touchEveryManifest(versions);
        }
        return super.listFiles(dir, recursive);
      }
    };

    long latest = table.latestVersion();
    CleanupResult incremental = run(table.root(), MarkMode.INCREMENTAL, touching, new Policy(1), latest);
    CleanupResult full = run(twin, MarkMode.FULL, plain, new Policy(1), latest);

    assertThat(touched).as("the plan listed _versions/ through the wrapper").isTrue();
    assertThat(incremental.manifestsRead()).as("every listed manifest decoded: the ledger no longer answers")
        .isEqualTo(full.manifestsRead());
    assertThat(incremental.counters()).as("what the run removed").isEqualTo(full.counters());
    assertThat(lanceFiles(table.root())).isEqualTo(lanceFiles(twin));
    assertThat(full.counters().oldVersions()).isGreaterThan(0);
  }

  private static void touchEveryManifest(Path versions) {
    try (Stream<Path> manifests = Files.list(versions)) {
      for (Path manifest : manifests.filter(p -> p.getFileName().toString().endsWith(".manifest")).toList()) {
        FileTime was = Files.getLastModifiedTime(manifest);
        Files.setLastModifiedTime(manifest, FileTime.fromMillis(was.toMillis() + 5_000));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Path> ledgerFiles(Path root, String suffix) {
    try (Stream<Path> walk = Files.walk(root.resolve(Ledger.DIR), 1)) {
      return walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().contains(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteLedger(Path root) {
    TableTwins.deleteRecursively(root.resolve(Ledger.DIR));
  }

  private static void cutHeadCommitShort(Path root) {
    List<Path> commits = ledgerFiles(root, "commit.");
    Path head = commits.get(commits.size() - 1);
    rewrite(head, bytes -> java.util.Arrays.copyOf(bytes, bytes.length / 2));
  }

  private static void flipAByteOfASegment(Path root) {
    for (Path segment : ledgerFiles(root, ".seg")) {
      rewrite(segment, bytes -> {
        bytes[bytes.length / 2] ^= 0x5a;
        return bytes;
      });
    }
  }

  private static void leaveAKilledWritersFiles(Path root) {
    try {
      Files.write(root.resolve(Ledger.DIR).resolve("seg-0000000000000000099-killed.seg"), new byte[] {'L', 'M'});
      Files.write(root.resolve(Ledger.DIR).resolve(".staged-killed"), new byte[] {1});
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void copyAnotherTablesLedger(Path root) {
    LanceTableFixture other = LanceTableFixture.create(work.resolve("other"));
    other.append(3);
    other.append(3);
    run(other.root(), MarkMode.INCREMENTAL, HadoopTableStorage.factory(StorageConf.defaults()), new Policy(1), other.latestVersion());
    deleteLedger(root);
    TableTwins.copy(other.root().resolve(Ledger.DIR), root.resolve(Ledger.DIR));
  }

  private static void rewrite(Path file, java.util.function.UnaryOperator<byte[]> change) {
    try {
      Files.write(file, change.apply(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }}
