package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The record of the last listing on the store (docs/ledger.md, section 11.1): what is written reads
 * back and describes the versions of the snapshot it was written for and no others; a record cut
 * anywhere, with any byte changed, grown, another table's or dataset's, or absent gives no record
 * and says why (the run then lists); the newest generation is read and a write removes the older ones.
 */
class UnlistedRecordTest {
  @TempDir Path dir;
  TableStorage storage;

  @BeforeEach
  void openStorage() {
    storage = new HadoopTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults());
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  private static UnlistedRecord record(String fingerprint, KeySnapshot describes, long horizon) {
    return new UnlistedRecord(fingerprint, DatasetRef.MAIN, UnlistedRecord.digestOf(describes.versions()), horizon,
        List.of(new FileEntry("data/young-orphan.lance", 12, horizon - 5_000),
            new FileEntry("_transactions/7-kept.txn", 300, horizon - 9_000)));
  }

  private UnlistedRecord.Read readNewest(String fingerprint) {
    return UnlistedRecord.readNewest(storage, LedgerDirectory.list(storage, DatasetRef.MAIN), fingerprint);
  }

  private Path newestFile() throws Exception {
    try (Stream<Path> files = Files.list(dir.resolve(Ledger.dirOf(DatasetRef.MAIN)))) {
      return files.filter(p -> p.getFileName().toString().startsWith(UnlistedRecord.PREFIX)).sorted()
          .reduce((a, b) -> b).orElseThrow();
    }
  }

  @Test
  void whatIsWrittenReadsBackAndDescribesItsSnapshotsVersionsOnly() {
    KeySnapshot snapshot = KeySnapshotFileTest.snapshot("f1");
    UnlistedRecord written = record("f1", snapshot, 1_700_000_000_000L);
    assertThat(written.write(storage, LedgerDirectory.list(storage, DatasetRef.MAIN))).isTrue();

    UnlistedRecord read = readNewest("f1").record().orElseThrow();
    assertThat(read.encode()).isEqualTo(written.encode());
    assertThat(read.horizonMillis()).isEqualTo(1_700_000_000_000L);
    assertThat(read.kept()).isEqualTo(written.kept());
    assertThat(read.describes(snapshot)).isTrue();
    // Another table's snapshot of the same versions, and a snapshot of other versions, are not described.
    assertThat(read.describes(KeySnapshotFileTest.snapshot("f2"))).isFalse();
    KeySnapshot fewer = new KeySnapshot(snapshot.fingerprint(), snapshot.dataset(),
        snapshot.versions().subList(1, snapshot.versions().size()), snapshot.partitions());
    assertThat(read.describes(fewer)).isFalse();
  }

  @Test
  void aRecordCutAnywhereChangedInAnyByteOrGrownGivesNoRecord() throws Exception {
    assertThat(record("f1", KeySnapshotFileTest.snapshot("f1"), 42L)
        .write(storage, LedgerDirectory.list(storage, DatasetRef.MAIN))).isTrue();
    Path file = newestFile();
    byte[] whole = Files.readAllBytes(file);
    for (int cut = 0; cut < whole.length; cut++) {
      Files.write(file, Arrays.copyOf(whole, cut));
      assertThat(readNewest("f1").record()).as("cut at %s", cut).isEmpty();
    }
    for (int at = 0; at < whole.length; at++) {
      byte[] changed = whole.clone();
      changed[at] ^= 0x10;
      Files.write(file, changed);
      assertThat(readNewest("f1").record()).as("byte %s changed", at).isEmpty();
    }
    byte[] grown = Arrays.copyOf(whole, whole.length + 1);
    Files.write(file, grown);
    assertThat(readNewest("f1").record()).as("grown").isEmpty();
    Files.write(file, whole);
    assertThat(readNewest("f1").record()).isPresent();
    assertThat(readNewest("f2").problem()).contains("another table");
  }

  @Test
  void theNewestGenerationIsReadAndAWriteRemovesTheOlderOnes() throws Exception {
    KeySnapshot snapshot = KeySnapshotFileTest.snapshot("f1");
    assertThat(readNewest("f1").problem()).contains("no record");
    assertThat(record("f1", snapshot, 1L).write(storage, LedgerDirectory.list(storage, DatasetRef.MAIN))).isTrue();
    LedgerDirectory listed = LedgerDirectory.list(storage, DatasetRef.MAIN);
    assertThat(record("f1", snapshot, 2L).write(storage, listed)).isTrue();
    // A writer that listed before the second write takes the same generation: it loses the create.
    assertThat(record("f1", snapshot, 3L).write(storage, listed)).isFalse();
    assertThat(readNewest("f1").record().orElseThrow().horizonMillis()).isEqualTo(2L);
    try (Stream<Path> files = Files.list(dir.resolve(Ledger.dirOf(DatasetRef.MAIN)))) {
      assertThat(files.filter(p -> p.getFileName().toString().startsWith(UnlistedRecord.PREFIX)).count()).isEqualTo(1);
    }
  }
}
