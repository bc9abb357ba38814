package dev.lancemaintenance.ledger;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which of the ledger's files a run read, and on which threads; and on which threads it listed their
 * directory. The path a run took shows in them: today's path reads the whole ledger to mark, the key
 * snapshot's path reads the snapshot and of the ledger only what its append compacts (docs/ledger.md,
 * section 12.4). For runs in this JVM: the factory is not serializable.
 */
public final class LedgerReads {
  /** The threads that write beside the release: the ledger's commit, the snapshot path's append and its key snapshot. */
  private static final List<String> BESIDE_THE_RELEASE = List.of("lance-ledger-commit", "lance-ledger-append", "lance-key-snapshot");

  private final List<String> segmentReaders = new CopyOnWriteArrayList<>();
  private final List<String> directoryListers = new CopyOnWriteArrayList<>();
  private final AtomicBoolean keySnapshotRead = new AtomicBoolean();

  /** Storage that notes the ledger's reads and listings, else as Hadoop's. */
  public TableStorageFactory factory() {
    TableStorageFactory plain = HadoopTableStorage.factory(StorageConf.defaults());
    return location -> new ForwardingTableStorage(plain.open(location)) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.equals(Ledger.DIR)) {
          directoryListers.add(Thread.currentThread().getName());
        }
        return super.listFiles(dir, recursive);
      }

      @Override
      public byte[] read(String path, long offset, int length) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (path.startsWith(Ledger.DIR + "/") && name.startsWith("seg-")) {
          segmentReaders.add(Thread.currentThread().getName());
        }
        if (path.startsWith(Ledger.DIR + "/") && name.startsWith("keys.")) {
          keySnapshotRead.set(true);
        }
        return super.read(path, offset, length);
      }
    };
  }

  /** Whether the run read a key snapshot and of the ledger's segments only what its append compacts. */
  public boolean decidedFromTheKeySnapshot() {
    return keySnapshotRead.get() && ledgerReadOnlyToCompact();
  }

  /** Whether every segment read was the snapshot path's append compacting the ledger (none read to mark). */
  public boolean ledgerReadOnlyToCompact() {
    return segmentReaders.stream().allMatch(thread -> thread.startsWith("lance-ledger-append"));
  }

  /** The listings of the ledger's directory that the run's mark took, before the writes beside its release. */
  public long listingsToMark() {
    return directoryListers.stream().filter(thread -> BESIDE_THE_RELEASE.stream().noneMatch(thread::startsWith)).count();
  }

  /** The threads that listed the ledger's directory, in order. */
  public List<String> directoryListers() {
    return List.copyOf(directoryListers);
  }
}
