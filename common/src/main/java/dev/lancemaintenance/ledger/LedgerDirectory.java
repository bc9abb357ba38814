package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * One listing of a dataset's ledger directory, from which each reader of the run picks its files:
 * the ledger's commits ({@link Ledger#read(LedgerDirectory)}, and the head a run on the key
 * snapshot's path appends to, with the prune after it), the key snapshots ({@link
 * KeySnapshotFile#readNewest(TableStorage, LedgerDirectory, String)}) and the expiry records' names
 * ({@link ExpiryRecords#markTasks(LedgerDirectory)}). They share one directory, so on an object
 * store one LIST round trip serves the three where each listed it for itself.
 *
 * <p>Exact to share: the listing is taken by the run that holds the table lease, beside its plan,
 * and every reader checks what it reads (a commit's checksum and segments, a snapshot's checksums
 * and its versions against the plan's listing, a record's checksum). A file written after it by
 * another writer (an accident under the lease) is missed as it would be by a listing taken a moment
 * earlier: a commit then makes this run's commit lose its create-if-absent; a newer snapshot leaves
 * this run on the older one, which is checked against the listed versions all the same; an expiry
 * record only adds deletes, so one missed keeps its files as unverified.
 */
public final class LedgerDirectory {
  private final DatasetRef dataset;
  private final NavigableMap<Long, FileEntry> commits = new TreeMap<>();
  private final NavigableMap<Long, FileEntry> keySnapshots = new TreeMap<>();
  private final NavigableMap<Long, FileEntry> unlistedRecords = new TreeMap<>();
  private final List<String> expiryRecords = new ArrayList<>();
  private final List<FileEntry> files = new ArrayList<>();
  /** The highest end version a segment's name gives; -1 when no segment is listed. */
  private long newestSegmentEnd = -1;

  private LedgerDirectory(DatasetRef dataset) {
    this.dataset = dataset;
  }

  /** Lists {@code dataset}'s ledger directory once; throws {@link dev.lancemaintenance.storage.StorageException} as the listing does. */
  public static LedgerDirectory list(TableStorage storage, DatasetRef dataset) {
    LedgerDirectory directory = new LedgerDirectory(dataset);
    for (Iterator<FileEntry> files = storage.listFiles(Ledger.dirOf(dataset), false); files.hasNext(); ) {
      FileEntry file = files.next();
      directory.files.add(file);
      String name = Generations.lastSegment(file.path());
      Generations.of(name, Ledger.COMMIT_PREFIX).ifPresent(generation -> directory.commits.put(generation, file));
      Generations.of(name, KeySnapshotFile.PREFIX).ifPresent(generation -> directory.keySnapshots.put(generation, file));
      Generations.of(name, UnlistedRecord.PREFIX).ifPresent(generation -> directory.unlistedRecords.put(generation, file));
      if (ExpiryRecords.isRecord(name)) {
        directory.expiryRecords.add(file.path());
      }
      directory.newestSegmentEnd = Math.max(directory.newestSegmentEnd, segmentEnd(name));
    }
    Collections.sort(directory.expiryRecords);
    return directory;
  }

  public DatasetRef dataset() {
    return dataset;
  }

  /** The ledger's commit files by generation. */
  NavigableMap<Long, FileEntry> commits() {
    return Collections.unmodifiableNavigableMap(commits);
  }

  /** The key snapshot files by generation. */
  NavigableMap<Long, FileEntry> keySnapshots() {
    return Collections.unmodifiableNavigableMap(keySnapshots);
  }

  /** The records of the last listing ({@link UnlistedRecord}) by generation. */
  NavigableMap<Long, FileEntry> unlistedRecords() {
    return Collections.unmodifiableNavigableMap(unlistedRecords);
  }

  /** Every file listed, for the ledger's prune. */
  List<FileEntry> files() {
    return Collections.unmodifiableList(files);
  }

  /**
   * The highest end version among the segments' names ({@code seg-<end version>-<uuid>.seg}, {@link
   * Ledger}), empty when none is listed: a forecast of the newest key snapshot's end, read from the
   * listing alone before any file is, since a run on the key snapshot's path appends its segment and
   * then writes the snapshot of the same end. Only a forecast: a segment committed without a
   * snapshot after it (a run that died between the two), or one never committed, lists a higher end;
   * use it only where a wrong guess costs reads, never an answer ({@link LedgerReadAhead}).
   */
  OptionalLong newestSegmentEnd() {
    return newestSegmentEnd < 0 ? OptionalLong.empty() : OptionalLong.of(newestSegmentEnd);
  }

  /** The end version a segment's name gives, or -1 for any other name. */
  private static long segmentEnd(String name) {
    if (!name.startsWith(Ledger.SEGMENT_PREFIX) || !name.endsWith(Ledger.SEGMENT_SUFFIX)) {
      return -1;
    }
    int from = Ledger.SEGMENT_PREFIX.length();
    int to = name.indexOf('-', from);
    if (to <= from) {
      return -1;
    }
    long end = 0;
    for (int at = from; at < to; at++) {
      int digit = Character.digit(name.charAt(at), 10);
      if (digit < 0 || name.charAt(at) >= 0x80 || end > (Long.MAX_VALUE - digit) / 10) {
        return -1;
      }
      end = end * 10 + digit;
    }
    return end;
  }

  /** The expiry records' paths, in order. */
  List<String> expiryRecords() {
    return Collections.unmodifiableList(expiryRecords);
  }
}
