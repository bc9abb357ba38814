package dev.lancemaintenance.ledger;

import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableStorage;
import java.io.InputStream;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;

/**
 * A ledger segment's file as its commit names it, read in ranged reads of a few MB at its recorded
 * length, its CRC-32C taken as the bytes pass, and decoded from them: no array of the whole segment
 * is ever live. On {@code huge-steady} the segment is 136 MB, and as one array beside the segment
 * decoded from it, it was the largest part of the 378 MB a run that folds the ledger held in a 512 MB
 * heap (docs/ledger.md, section 7).
 *
 * <p>Exact as the read of the whole array was (docs/ledger.md, section 3): nothing decoded leaves
 * {@link #decode} before the whole length and checksum were checked against the commit, and a
 * refusal names what the array's read named, in the same order of precedence: a file shorter than
 * recorded, then a length or checksum that differs, then what the decode found. So a refusal in the
 * middle of the records reads the rest before it is told. A file longer than recorded is read as its
 * recorded length, as before: that prefix is the segment committed, checked whole.
 *
 * <p>On an object store each range is a request of its own: 34 {@code GET}s of 4 MB for a 136 MB
 * segment where one read was one, on the ledger's own thread beside the plan ({@link LedgerReadAhead}).
 */
final class SegmentStream extends InputStream {
  /** Bytes a ranged read asks for: few requests, a small array live at a time. */
  static final int CHUNK_BYTES = 4 << 20;

  private final TableStorage storage;
  private final String path;
  private final LedgerCommit.SegmentRef ref;
  private final String commitPath;
  private final int chunkBytes;
  private final CRC32C crc = new CRC32C();
  private byte[] chunk = new byte[0];
  private int inChunk;
  /** Bytes read from the store, of {@code ref.length()}. */
  private long fetched;
  private boolean shorter;

  private SegmentStream(TableStorage storage, String path, LedgerCommit.SegmentRef ref, String commitPath, int chunkBytes) {
    if (chunkBytes < 1) {
      throw new IllegalArgumentException("chunkBytes must be at least 1: " + chunkBytes);
    }
    this.storage = storage;
    this.path = path;
    this.ref = ref;
    this.commitPath = commitPath;
    this.chunkBytes = chunkBytes;
  }

  /**
   * The segment at {@code path}, checked against {@code ref} (named by {@code commitPath}) and
   * decoded with {@code canonical}'s instance of each element ({@link LedgerState#decodeCanonical}).
   *
   * @throws LedgerFormatException when the file is shorter than {@code ref} records, differs from
   *     it in length or checksum, or does not decode
   * @throws StorageException when a read fails otherwise
   */
  static LedgerSegment decode(TableStorage storage, String path, LedgerCommit.SegmentRef ref, String commitPath,
      UnaryOperator<LedgerElement> canonical, int chunkBytes) {
    SegmentStream in = new SegmentStream(storage, path, ref, commitPath, chunkBytes);
    LedgerSegment segment;
    try {
      segment = LedgerSegment.decode(path, in, ref.length(), canonical);
    } catch (LedgerFormatException refused) {
      // The array's read checked the length and checksum before decoding: those refusals come first.
      in.requireRecorded();
      throw refused;
    }
    in.requireRecorded();
    return segment;
  }

  /** Reads what is left of the recorded length and checks the checksum of all of it. */
  private void requireRecorded() {
    while (read() >= 0) {
      inChunk = chunk.length; // the rest of this chunk is checksummed already
    }
    if (crc.getValue() != ref.crc32c()) {
      throw new LedgerFormatException(path, "length or checksum differs from what " + commitPath + " records");
    }
  }

  @Override
  public int read() {
    if (!fill()) {
      return -1;
    }
    return chunk[inChunk++] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) {
    if (len == 0) {
      return 0;
    }
    if (!fill()) {
      return -1;
    }
    int n = Math.min(len, chunk.length - inChunk);
    System.arraycopy(chunk, inChunk, b, off, n);
    inChunk += n;
    return n;
  }

  /** What is left of the recorded length: a damaged record count is refused by it, as by the array's. */
  @Override
  public int available() {
    return (int) Math.min(Integer.MAX_VALUE, chunk.length - inChunk + ref.length() - fetched);
  }

  /** Whether a byte is there to read, fetching the next range when the chunk is used up. */
  private boolean fill() {
    if (inChunk < chunk.length) {
      return true;
    }
    if (shorter) {
      throw shorterThanRecorded();
    }
    if (fetched >= ref.length()) {
      return false;
    }
    int length = (int) Math.min(chunkBytes, ref.length() - fetched);
    chunk = new byte[0]; // let the used range go before the next one is read
    try {
      chunk = storage.read(path, fetched, length);
    } catch (StorageException e) {
      if (Ledger.endedEarly(e)) {
        shorter = true;
        throw shorterThanRecorded();
      }
      throw e;
    }
    crc.update(chunk);
    fetched += length;
    inChunk = 0;
    return true;
  }

  private LedgerFormatException shorterThanRecorded() {
    return new LedgerFormatException(path, "length or checksum differs from what its commit records (the file is shorter)");
  }
}
