package dev.lancemaintenance.ledger;

import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.StorageInputStream;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.function.UnaryOperator;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;

/**
 * Reads a ledger segment's file as its commit names it: in ranges at its recorded length
 * ({@link StorageInputStream}, no status request first), its CRC-32C taken as the bytes pass, and
 * decoded from them, so no array of the whole segment is ever live. On {@code huge-steady} the
 * segment is 136 MB, and as one array beside the segment decoded from it, it was the largest part
 * of the 378 MB a run that folds the ledger held in a 512 MB heap (docs/ledger.md, section 7).
 *
 * <p>Exact as the read of the whole array was (docs/ledger.md, section 3): nothing decoded leaves
 * {@link #decode} before the whole length and checksum were checked against the commit, and a
 * refusal names what the array's read named, in the same order of precedence: a file shorter than
 * recorded, then a length or checksum that differs, then what the decode found. So a refusal in the
 * middle of the records reads the rest before it is told. A file longer than recorded is read as its
 * recorded length, as before: that prefix is the segment committed, checked whole.
 */
final class SegmentReader {
  private SegmentReader() {}

  /**
   * The segment at {@code path}, checked against {@code ref} (named by {@code commitPath}) and
   * decoded with {@code canonical}'s instance of each element ({@link LedgerState#decodeCanonical}),
   * read in ranges of {@code chunkBytes}.
   *
   * @throws LedgerFormatException when the file is shorter than {@code ref} records, differs from
   *     it in length or checksum, or does not decode
   * @throws StorageException when a read fails otherwise
   */
  static LedgerSegment decode(TableStorage storage, String path, LedgerCommit.SegmentRef ref, String commitPath,
      UnaryOperator<LedgerElement> canonical, int chunkBytes) {
    CheckedInputStream in = new CheckedInputStream(new StorageInputStream(storage, path, ref.length(), chunkBytes), new CRC32C());
    try {
      LedgerSegment segment;
      try {
        segment = LedgerSegment.decode(path, in, ref.length(), canonical);
      } catch (LedgerFormatException refused) {
        // The array's read checked the length and checksum before decoding: those refusals come first.
        requireRecorded(in, path, ref, commitPath);
        throw refused;
      }
      requireRecorded(in, path, ref, commitPath);
      return segment;
    } catch (StorageException e) {
      if (Ledger.endedEarly(e)) {
        throw new LedgerFormatException(path, "length or checksum differs from what its commit records (the file is shorter)");
      }
      throw e;
    }
  }

  /** Reads what is left of the recorded length and checks the checksum of all of it. */
  private static void requireRecorded(CheckedInputStream in, String path, LedgerCommit.SegmentRef ref, String commitPath) {
    try {
      in.transferTo(OutputStream.nullOutputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // the store's reads throw StorageException, not this
    }
    if (in.getChecksum().getValue() != ref.crc32c()) {
      throw new LedgerFormatException(path, "length or checksum differs from what " + commitPath + " records");
    }
  }
}
