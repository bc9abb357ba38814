package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/** What a test can tell from a table's ledger directory about the key snapshot's path (docs/ledger.md, section 12). */
public final class KeySnapshots {
  private KeySnapshots() {}

  /** Whether a run left a key snapshot of the main table beside its ledger (the local engine's runs do). */
  public static boolean leftBeside(Path table) {
    Path dir = table.resolve(Ledger.DIR);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(file -> file.getFileName().toString().startsWith("keys."));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Whether the main table's ledger ends with a segment whose first version is whole: what a run
   * that decided from the key snapshot appends ({@link Ledger#appendWithoutFold}), and no other.
   */
  public static boolean newestSegmentHasItsFirstVersionWhole(Path table) {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.toString()), StorageConf.defaults())) {
      LedgerCommit head = new Ledger(storage, DatasetRef.MAIN, Clock.systemUTC()).read().commit()
          .orElseThrow(() -> new AssertionError("no usable ledger under " + table));
      List<LedgerCommit.SegmentRef> segments = head.segments();
      String newest = Ledger.dirOf(DatasetRef.MAIN) + "/" + segments.get(segments.size() - 1).name();
      return LedgerSegment.decode(newest, storage.readFully(newest)).firstVersionWhole();
    }
  }
}
