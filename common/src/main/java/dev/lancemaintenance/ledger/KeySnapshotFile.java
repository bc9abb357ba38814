package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The key snapshot on the store: {@code keys.<generation, 19 digits>} beside the dataset's ledger
 * commits, immutable, created with {@link TableStorage#createIfAbsent} at the next generation; the
 * highest generation is the snapshot (docs/ledger.md, section 12).
 *
 * <p>Layout: magic {@code LMKEYSNP}, format, the header's length; the header (fingerprint,
 * dataset, every version with its manifest's name, length, modification time and commit time, and
 * per partition its entry count and CRC-32C), the header's CRC-32C; then the {@link
 * KeyHash#PARTITIONS} partitions, each its entries sorted by hash, 25 bytes an entry (hash, newest
 * version, open elements); end magic {@code LMKEYEND}. A partition's place follows from the header,
 * so that a reader can read one partition at a time.
 *
 * <p>Never trusted blindly: a file cut short or grown (its length is the header's), any byte changed
 * (the header's and each partition's checksum), unsorted entries or entries in the wrong partition,
 * another table's or dataset's fingerprint: the read says why and gives no snapshot, and the run
 * takes today's path. A snapshot that reads whole is true of its own versions, whoever wrote it;
 * whether those are the listed ones is {@link KeySnapshot#mismatch}'s question, so two writers of
 * one generation on a store that ignores the condition (the last one wins whole) need no read-back.
 */
public final class KeySnapshotFile {
  static final String PREFIX = "keys.";
  private static final byte[] MAGIC = "LMKEYSNP".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END_MAGIC = "LMKEYEND".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;
  /** Magic, format and header length. */
  private static final int PREFIX_BYTES = MAGIC.length + 2 * Integer.BYTES;
  static final int ENTRY_BYTES = 3 * Long.BYTES + 1;

  private KeySnapshotFile() {}

  /** What reading the newest snapshot gave: a snapshot, or why there is none to use. */
  public record Read(Optional<KeySnapshot> snapshot, Optional<String> problem) {
    static Read of(KeySnapshot snapshot) {
      return new Read(Optional.of(snapshot), Optional.empty());
    }

    static Read unusable(String why) {
      return new Read(Optional.empty(), Optional.of(why));
    }
  }

  /**
   * Reads and checks the dataset's newest snapshot; never throws for one that is absent, damaged or
   * foreign.
   *
   * @param fingerprint the dataset's ledger fingerprint ({@link Ledger#fingerprint})
   */
  public static Read readNewest(TableStorage storage, DatasetRef dataset, String fingerprint) {
    LedgerDirectory listed;
    try {
      listed = LedgerDirectory.list(storage, dataset);
    } catch (StorageException e) {
      return Read.unusable("the snapshots could not be listed: " + e.getMessage());
    }
    return readNewest(storage, listed, fingerprint);
  }

  /** As {@link #readNewest(TableStorage, DatasetRef, String)}, from a listing of the ledger's directory the run took once. */
  public static Read readNewest(TableStorage storage, LedgerDirectory listed, String fingerprint) {
    DatasetRef dataset = listed.dataset();
    NavigableMap<Long, FileEntry> generations = listed.keySnapshots();
    if (generations.isEmpty()) {
      return Read.unusable("no key snapshot yet");
    }
    FileEntry newest = generations.lastEntry().getValue();
    String path = newest.path();
    try {
      KeySnapshot snapshot = decode(path, storage.readAsListed(newest));
      if (!snapshot.fingerprint().equals(fingerprint) || !snapshot.dataset().equals(dataset)) {
        return Read.unusable(path + " describes another table or dataset");
      }
      return Read.of(snapshot);
    } catch (LedgerFormatException | StorageException e) {
      return Read.unusable(e.getMessage());
    }
  }

  /**
   * Writes {@code snapshot} as the dataset's next generation and removes the older ones. Returns
   * false, writing nothing, when another writer took that generation first.
   */
  public static boolean write(TableStorage storage, KeySnapshot snapshot) {
    return write(storage, snapshot.dataset(), encode(snapshot), generations(storage, snapshot.dataset()), superseded -> {
      if (!superseded.isEmpty()) {
        storage.deleteBatch(superseded);
      }
    });
  }

  /**
   * As {@link #write(TableStorage, KeySnapshot)}, the snapshot encoded already ({@link #encode}: a
   * run works it out beside its ledger's append, {@link KeySnapshotMark.Outcome#leaveNext}), above
   * the generations in the listing of the ledger's directory the run took beside its plan ({@link
   * LedgerDirectory}), handing the older generations to {@code superseded} instead of deleting them
   * here (a run deletes them beside its lease's release). Exact as the listing's other readers (LedgerDirectory): under the lease no
   * other run writes a snapshot, and one written after the listing all the same holds the generation
   * this write would take, which it then does not take ({@code createIfAbsent}); the generations
   * handed over are the listed ones, all below the one written.
   */
  static boolean write(TableStorage storage, DatasetRef dataset, byte[] encoded, LedgerDirectory listed,
      Consumer<List<String>> superseded) {
    if (!listed.dataset().equals(dataset)) {
      throw new IllegalArgumentException("a listing of " + listed.dataset() + "'s ledger, not " + dataset + "'s");
    }
    return write(storage, dataset, encoded, listed.keySnapshots(), superseded);
  }

  private static boolean write(TableStorage storage, DatasetRef dataset, byte[] encoded, NavigableMap<Long, FileEntry> older,
      Consumer<List<String>> superseded) {
    long next = older.isEmpty() ? 1 : older.lastKey() + 1;
    if (!storage.createIfAbsent(pathOf(dataset, next), encoded)) {
      return false;
    }
    superseded.accept(older.values().stream().map(FileEntry::path).toList());
    return true;
  }

  static String pathOf(DatasetRef dataset, long generation) {
    return TablePaths.join(Ledger.dirOf(dataset), Generations.fileName(PREFIX, generation));
  }

  private static TreeMap<Long, FileEntry> generations(TableStorage storage, DatasetRef dataset) {
    TreeMap<Long, FileEntry> generations = new TreeMap<>();
    for (Iterator<FileEntry> files = storage.listFiles(Ledger.dirOf(dataset), false); files.hasNext(); ) {
      FileEntry file = files.next();
      Generations.of(file.path(), PREFIX).ifPresent(generation -> generations.put(generation, file));
    }
    return generations;
  }

  /**
   * The file's bytes, in one array of the file's length: a snapshot made from a first run's ledger
   * has an entry per file of the table's history (~25 MB on `huge-steady`), and the byte arrays
   * grown, copied per partition and copied again to return them were four times that, which a
   * 512 MB heap beside the ledger's fold could not spare. The header precedes the entries and holds
   * each partition's checksum, so it is written with room for them, and each is filled in from the
   * partition's bytes once they are in place (the header's own checksum last).
   */
  static byte[] encode(KeySnapshot snapshot) {
    ByteArrayOutputStream header = new ByteArrayOutputStream();
    int[] checksumAt = new int[snapshot.partitions().size()];
    long entryBytes = 0;
    try (DataOutputStream out = new DataOutputStream(header)) {
      out.writeUTF(snapshot.fingerprint());
      out.writeUTF(snapshot.dataset().dir());
      out.writeInt(snapshot.versions().size());
      for (LedgerVersion version : snapshot.versions()) {
        version.writeTo(out);
      }
      out.writeInt(snapshot.partitions().size());
      for (int p = 0; p < checksumAt.length; p++) {
        KeyPartition partition = snapshot.partitions().get(p);
        out.writeInt(partition.size());
        checksumAt[p] = PREFIX_BYTES + header.size();
        out.writeLong(0); // filled in below
        entryBytes += (long) partition.size() * ENTRY_BYTES;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    int headed = PREFIX_BYTES + header.size() + Long.BYTES;
    long length = headed + entryBytes + END_MAGIC.length;
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("a key snapshot of " + length + " bytes is larger than one file this release writes");
    }
    ByteBuffer file = ByteBuffer.allocate((int) length);
    file.put(MAGIC).putInt(FORMAT).putInt(headed).put(header.toByteArray());
    int headerEnd = file.position();
    file.position(headed);
    for (int p = 0; p < checksumAt.length; p++) {
      KeyPartition partition = snapshot.partitions().get(p);
      int from = file.position();
      for (int at = 0; at < partition.size(); at++) {
        putEntry(file, partition, at);
      }
      file.putLong(checksumAt[p], crc(file.array(), from, file.position() - from));
    }
    file.putLong(headerEnd, crc(file.array(), 0, headerEnd));
    file.put(END_MAGIC);
    return file.array();
  }

  private static void putEntry(ByteBuffer into, KeyPartition partition, int at) {
    into.putLong(partition.high[at]).putLong(partition.low[at]).putLong(partition.newest[at]).put(partition.openElements[at]);
  }

  /**
   * Checks and decodes one snapshot file: the header, then each partition by itself. The file is
   * read whole, in one request at its listed length: on an object store each ranged read is a round
   * trip, and reading the prefix, header, end and sixteen partitions one after another was twenty of
   * them in the daily run's row. The whole file is ~25 bytes a key, the size of the snapshot held in
   * memory anyway, and each partition is checked against its own checksum as before.
   */
  static KeySnapshot decode(String path, byte[] file) {
    long length = file.length;
    if (length < PREFIX_BYTES + END_MAGIC.length) {
      throw new LedgerFormatException(path, "not a complete key snapshot (" + length + " bytes)");
    }
    ByteBuffer prefix = ByteBuffer.wrap(file, 0, PREFIX_BYTES);
    byte[] magic = new byte[MAGIC.length];
    prefix.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new LedgerFormatException(path, "not a key snapshot (magic missing)");
    }
    int format = prefix.getInt();
    if (format != FORMAT) {
      throw new LedgerFormatException(path, "key snapshot format " + format + ", this release reads " + FORMAT);
    }
    int headerLength = prefix.getInt();
    if (headerLength < PREFIX_BYTES + Long.BYTES || headerLength > length - END_MAGIC.length) {
      throw new LedgerFormatException(path, "impossible header length " + headerLength);
    }
    Header header = Header.decode(path, Arrays.copyOf(file, headerLength));
    long expected = headerLength + header.entryBytes() + END_MAGIC.length;
    if (length != expected) {
      throw new LedgerFormatException(path, length + " bytes, the header accounts for " + expected + " (cut short or grown)");
    }
    if (!Arrays.equals(file, file.length - END_MAGIC.length, file.length, END_MAGIC, 0, END_MAGIC.length)) {
      throw new LedgerFormatException(path, "end magic missing");
    }
    List<KeyPartition> partitions = new ArrayList<>();
    int offset = headerLength;
    for (int index = 0; index < KeyHash.PARTITIONS; index++) {
      int count = header.counts()[index];
      int entryBytes = count * ENTRY_BYTES;
      if (crc(file, offset, entryBytes) != header.checksums()[index]) {
        throw new LedgerFormatException(path, "partition " + index + ": checksum mismatch");
      }
      partitions.add(decode(path, index, ByteBuffer.wrap(file, offset, entryBytes), count));
      offset += entryBytes;
    }
    try {
      return new KeySnapshot(header.fingerprint(), header.dataset(), header.versions(), partitions);
    } catch (IllegalArgumentException e) {
      throw new LedgerFormatException(path, e.getMessage());
    }
  }

  private static KeyPartition decode(String path, int index, ByteBuffer entries, int count) {
    KeyPartition partition =
        new KeyPartition(new long[count], new long[count], new long[count], new byte[count]);
    for (int at = 0; at < count; at++) {
      partition.high[at] = entries.getLong();
      partition.low[at] = entries.getLong();
      partition.newest[at] = entries.getLong();
      partition.openElements[at] = entries.get();
      if (KeyHash.partitionOf(partition.high[at]) != index) {
        throw new LedgerFormatException(path, "an entry of partition " + KeyHash.partitionOf(partition.high[at])
            + " in partition " + index);
      }
      if (at > 0 && partition.hashAt(at - 1).compareTo(partition.hashAt(at)) >= 0) {
        throw new LedgerFormatException(path, "partition " + index + " is not sorted by hash");
      }
      if (partition.newest[at] < 0 || partition.openElements[at] < 0
          || (partition.openElements[at] > 0) != (partition.newest[at] == KeySnapshot.OPEN)) {
        throw new LedgerFormatException(path, "partition " + index + ": an impossible entry");
      }
    }
    return partition;
  }

  /** The header, its checksum checked. */
  private record Header(String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, int[] counts, long[] checksums) {
    static Header decode(String path, byte[] bytes) {
      long found = ByteBuffer.wrap(bytes, bytes.length - Long.BYTES, Long.BYTES).getLong();
      if (crc(bytes, 0, bytes.length - Long.BYTES) != found) {
        throw new LedgerFormatException(path, "header checksum mismatch");
      }
      try (DataInputStream in = new DataInputStream(
          new ByteArrayInputStream(bytes, PREFIX_BYTES, bytes.length - PREFIX_BYTES - Long.BYTES))) {
        String fingerprint = in.readUTF();
        DatasetRef dataset = new DatasetRef(in.readUTF());
        List<LedgerVersion> versions = new ArrayList<>();
        for (int i = LedgerSegment.count(in, path); i > 0; i--) {
          versions.add(new LedgerVersion(in.readLong(), in.readUTF(), in.readLong(), in.readLong(), in.readLong()));
        }
        int partitions = in.readInt();
        if (partitions != KeyHash.PARTITIONS) {
          throw new LedgerFormatException(path, partitions + " partitions, this release reads " + KeyHash.PARTITIONS);
        }
        int[] counts = new int[partitions];
        long[] checksums = new long[partitions];
        for (int i = 0; i < partitions; i++) {
          counts[i] = in.readInt();
          checksums[i] = in.readLong();
          if (counts[i] < 0 || counts[i] > Integer.MAX_VALUE / ENTRY_BYTES) {
            throw new LedgerFormatException(path, "impossible entry count " + counts[i]);
          }
        }
        if (in.available() != 0) {
          throw new LedgerFormatException(path, "the header has " + in.available() + " bytes more than it names");
        }
        return new Header(fingerprint, dataset, versions, counts, checksums);
      } catch (IOException | IllegalArgumentException e) {
        throw new LedgerFormatException(path, "header does not decode: " + e.getMessage());
      }
    }

    long entryBytes() {
      return Arrays.stream(counts).mapToLong(count -> (long) count * ENTRY_BYTES).sum();
    }
  }

  private static long crc(byte[] bytes, int from, int length) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, length);
    return crc.getValue();
  }
}
