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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What a daily run needs to skip the listing of the managed directories on an object store
 * (docs/ledger.md, section 11): beside the key snapshot, {@code unlisted.<generation>}, immutable,
 * the highest generation the record.
 *
 * <ul>
 *   <li>{@link #versionsDigest}: the versions {@code S} it is true of (a SHA-256 of the identities of
 *       their manifests and their commit times, as the key snapshot of {@code S} holds them);
 *   <li>{@link #horizonMillis} {@code H}: a store time before which every object still under the
 *       managed directories was seen by the last run that listed them;
 *   <li>{@link #kept} {@code K}: the files of a candidate kind that run (and every run since) saw,
 *       did not delete, and that no version of {@code S} references, with size and store time.
 * </ul>
 *
 * <p>Its claim, "every object under the managed directories with a store time before {@code H} is
 * referenced by a version of {@code S} or named in {@code K}", is a fact about the store that stays
 * true once true wherever the store assigns the times (section 11.3): objects only go, and an object
 * written later has a later time. So a record is used with whatever snapshot describes the same
 * {@code S}, whoever wrote either. Never trusted blindly: a file cut short, grown or changed in any
 * byte (its CRC-32C and end magic), another table's or dataset's, is refused and the run lists.
 */
public final class UnlistedRecord {
  static final String PREFIX = "unlisted.";
  private static final byte[] MAGIC = "LMUNLIST".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] END_MAGIC = "LMUNLEND".getBytes(StandardCharsets.US_ASCII);
  private static final int FORMAT = 1;

  private final String fingerprint;
  private final DatasetRef dataset;
  private final byte[] versionsDigest;
  private final long horizonMillis;
  private final List<FileEntry> kept;

  public UnlistedRecord(String fingerprint, DatasetRef dataset, byte[] versionsDigest, long horizonMillis, List<FileEntry> kept) {
    if (versionsDigest.length != 32) {
      throw new IllegalArgumentException("a versions digest is 32 bytes, not " + versionsDigest.length);
    }
    this.fingerprint = fingerprint;
    this.dataset = dataset;
    this.versionsDigest = versionsDigest.clone();
    this.horizonMillis = horizonMillis;
    this.kept = List.copyOf(kept);
  }

  public String fingerprint() {
    return fingerprint;
  }

  public DatasetRef dataset() {
    return dataset;
  }

  public long horizonMillis() {
    return horizonMillis;
  }

  public List<FileEntry> kept() {
    return kept;
  }

  /** Whether this record is true of the versions {@code snapshot} describes. */
  public boolean describes(KeySnapshot snapshot) {
    return snapshot.fingerprint().equals(fingerprint) && snapshot.dataset().equals(dataset)
        && Arrays.equals(versionsDigest, digestOf(snapshot.versions()));
  }

  /** The digest of the versions {@code S}, from their identities as the key snapshot holds them. */
  public static byte[] digestOf(List<LedgerVersion> versions) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(bytes)) {
        for (LedgerVersion version : versions) {
          version.writeTo(out);
        }
      }
      return digest.digest(bytes.toByteArray());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What reading the newest record gave: a record, or why there is none to use. */
  public record Read(Optional<UnlistedRecord> record, String problem) {
    static Read unusable(String why) {
      return new Read(Optional.empty(), why);
    }
  }

  /** Reads and checks the newest record of the listed ledger directory; never throws for one absent, damaged or foreign. */
  public static Read readNewest(TableStorage storage, LedgerDirectory listed, String fingerprint) {
    NavigableMap<Long, FileEntry> generations = listed.unlistedRecords();
    if (generations.isEmpty()) {
      return Read.unusable("no record of the last listing");
    }
    FileEntry newest = generations.lastEntry().getValue();
    try {
      UnlistedRecord record = decode(newest.path(), storage.readAsListed(newest));
      if (!record.fingerprint.equals(fingerprint) || !record.dataset.equals(listed.dataset())) {
        return Read.unusable(newest.path() + " describes another table or dataset");
      }
      return new Read(Optional.of(record), "");
    } catch (LedgerFormatException | StorageException e) {
      return Read.unusable(e.getMessage());
    }
  }

  /**
   * Writes this record as the next generation above those {@code listed} shows, and deletes those.
   * Returns false, writing nothing, when another writer took that generation first.
   */
  public boolean write(TableStorage storage, LedgerDirectory listed) {
    NavigableMap<Long, FileEntry> older = new TreeMap<>(listed.unlistedRecords());
    long next = older.isEmpty() ? 1 : older.lastKey() + 1;
    if (!storage.createIfAbsent(pathOf(dataset, next), encode())) {
      return false;
    }
    Ledger.deleteOld(storage, older.values().stream().map(FileEntry::path).toList());
    return true;
  }

  static String pathOf(DatasetRef dataset, long generation) {
    return TablePaths.join(Ledger.dirOf(dataset), Generations.fileName(PREFIX, generation));
  }

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.write(MAGIC);
      out.writeInt(FORMAT);
      out.writeUTF(fingerprint);
      out.writeUTF(dataset.dir());
      out.write(versionsDigest);
      out.writeLong(horizonMillis);
      out.writeInt(kept.size());
      for (FileEntry file : kept) {
        out.writeUTF(file.path());
        out.writeLong(file.size());
        out.writeLong(file.modificationTimeMillis());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    byte[] body = bytes.toByteArray();
    CRC32C crc = new CRC32C();
    crc.update(body);
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    file.writeBytes(body);
    file.writeBytes(longBytes(crc.getValue()));
    file.writeBytes(END_MAGIC);
    return file.toByteArray();
  }

  static UnlistedRecord decode(String path, byte[] bytes) {
    int trailer = Long.BYTES + END_MAGIC.length;
    if (bytes.length < MAGIC.length + trailer
        || !Arrays.equals(Arrays.copyOfRange(bytes, bytes.length - END_MAGIC.length, bytes.length), END_MAGIC)) {
      throw new LedgerFormatException(path, "cut short or not a record of the last listing");
    }
    byte[] body = Arrays.copyOfRange(bytes, 0, bytes.length - trailer);
    CRC32C crc = new CRC32C();
    crc.update(body);
    long stored = 0;
    for (int i = 0; i < Long.BYTES; i++) {
      stored = (stored << 8) | (bytes[body.length + i] & 0xFF);
    }
    if (crc.getValue() != stored) {
      throw new LedgerFormatException(path, "checksum mismatch");
    }
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(body))) {
      byte[] magic = in.readNBytes(MAGIC.length);
      if (!Arrays.equals(magic, MAGIC) || in.readInt() != FORMAT) {
        throw new LedgerFormatException(path, "not a record of the last listing of this format");
      }
      String fingerprint = in.readUTF();
      DatasetRef dataset = new DatasetRef(in.readUTF());
      byte[] digest = in.readNBytes(32);
      long horizon = in.readLong();
      int count = in.readInt();
      if (count < 0) {
        throw new LedgerFormatException(path, "a negative count of kept files");
      }
      List<FileEntry> kept = new ArrayList<>(Math.min(count, 1 << 16));
      for (int i = 0; i < count; i++) {
        kept.add(new FileEntry(in.readUTF(), in.readLong(), in.readLong()));
      }
      if (in.available() != 0) {
        throw new LedgerFormatException(path, "bytes after the kept files");
      }
      return new UnlistedRecord(fingerprint, dataset, digest, horizon, kept);
    } catch (IOException | IllegalArgumentException e) {
      throw new LedgerFormatException(path, "unreadable: " + e.getMessage());
    }
  }

  private static byte[] longBytes(long value) {
    byte[] bytes = new byte[Long.BYTES];
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[i] = (byte) (value >>> (8 * (Long.BYTES - 1 - i)));
    }
    return bytes;
  }
}
