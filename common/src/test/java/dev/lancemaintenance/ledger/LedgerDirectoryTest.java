package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The forecast of the newest key snapshot's end that one listing of the ledger's directory gives. */
class LedgerDirectoryTest {
  @TempDir Path dir;

  @Test
  void theNewestSegmentEndIsTheHighestEndASegmentsNameGives() {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults())) {
      assertThat(LedgerDirectory.list(storage, DatasetRef.MAIN).newestSegmentEnd()).isEmpty();
      write(storage, "seg-0000000000000001982-6f0c0a5e-52f3-4b6e-9d2a-1f1e0e4c8a01.seg");
      write(storage, "seg-0000000000000002002-0b8f5b1c-3a64-4a0e-8f3e-2b8b7b9c1d02.seg");
      write(storage, "seg-0000000000000000020-9c2d4e6f-0a1b-4c3d-8e5f-6a7b8c9d0e03.seg");
      // Names that are not segments, or whose end does not read as a number, forecast nothing.
      write(storage, "keys.0000000000000000009");
      write(storage, "commit.0000000000000000009");
      write(storage, "seg-99999999999999999999-overflowing.seg");
      write(storage, "seg-12x4-garbled.seg");
      write(storage, ".staged-seg-0000000000000009999-a.seg");
      write(storage, "seg-0000000000000009999-not-a-segment.txt");

      assertThat(LedgerDirectory.list(storage, DatasetRef.MAIN).newestSegmentEnd()).isEqualTo(OptionalLong.of(2002));
    }
  }

  private static void write(TableStorage storage, String name) {
    storage.write(Ledger.dirOf(DatasetRef.MAIN) + "/" + name, "x".getBytes(StandardCharsets.UTF_8));
  }
}
