package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One immutable ledger file: the versions it summarises and the changes of their references.
 *
 * <p>An element that a summarised version references and its predecessor did not is
 * <em>opened</em> at that version; one its predecessor referenced and it does not is
 * <em>closed</em> at it. Folding the segments of a commit in order ({@link LedgerState}) gives, for
 * every element, the half-open version ranges {@code [from, to)} in which it was referenced. A
 * compacted segment carries the same records for the whole ledger at once.
 *
 * <p><b>First version whole</b> ({@code firstVersionWhole}): a segment summarised without a base,
 * as a run that decided from the key snapshot summarises its new versions (docs/ledger.md, section
 * 12.4): its first version opens everything it references, the later ones their changes. The fold
 * continues it from its own newest references ({@link LedgerState#joined}), as the driver joins a
 * first run without base ({@link VersionSummaries#join}), so such a segment needs no reader of the
 * ledger to write it, and what the fold says about the first version is that manifest's references
 * whatever the fold said before it.
 *
 * <p>Encoding: a magic and format number (1, or 2 for a segment whose first version is whole, which
 * an older release refuses and so marks in full), the table fingerprint and dataset, the three
 * record lists, then a CRC-32C of everything before it and an end magic. A file cut short, or
 * changed, never decodes ({@link LedgerFormatException}).
 */
public record LedgerSegment(String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, List<Open> opens,
    List<Close> closes, boolean firstVersionWhole) {
  private static final LedgerFile FILE = new LedgerFile("ledger segment", "LMLEDGER", "LMLEDEND", 1);
  private static final LedgerFile FIRST_WHOLE = new LedgerFile("ledger segment", "LMLEDGER", "LMLEDEND", 2);
  /** Where {@link LedgerFile} writes the format number: after the eight bytes of magic. */
  private static final int FORMAT_AT = 8;
  /** The fewest bytes a version's record takes (four longs and an empty name). */
  private static final int VERSION_BYTES = 4 * Long.BYTES + 2;
  /** The fewest bytes an open or close takes (an empty key, a one-letter kind, the flag, the version). */
  private static final int CHANGE_BYTES = 2 + 3 + 1 + Long.BYTES;

  public LedgerSegment {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(dataset, "dataset");
    versions = List.copyOf(versions);
    opens = List.copyOf(opens);
    closes = List.copyOf(closes);
    if (firstVersionWhole && !versions.isEmpty()) {
      long first = versions.get(0).version();
      if (closes.stream().anyMatch(close -> close.atVersion() == first)) {
        throw new IllegalArgumentException("a segment whose first version is whole closes nothing at it");
      }
    }
  }

  /** A segment of changes against the fold it continues. */
  public LedgerSegment(String fingerprint, DatasetRef dataset, List<LedgerVersion> versions, List<Open> opens, List<Close> closes) {
    this(fingerprint, dataset, versions, opens, closes, false);
  }

  /**
   * This segment's versions above {@code version}, the first of them whole: its references are this
   * segment's first version's, carried through every change up to it. Only of a segment whose first
   * version is whole; empty of versions when none is above.
   */
  public LedgerSegment wholeAbove(long version) {
    if (!firstVersionWhole) {
      throw new IllegalStateException("only a segment whose first version is whole can be cut anywhere");
    }
    List<LedgerVersion> above = versions.stream().filter(summarised -> summarised.version() > version).toList();
    if (above.size() == versions.size()) {
      return this;
    }
    if (above.isEmpty()) {
      return new LedgerSegment(fingerprint, dataset, List.of(), List.of(), List.of(), true);
    }
    long first = above.get(0).version();
    // Folded from nothing up to the new first version, the segment's first version being whole,
    // the fold's open elements are the new first version's references.
    LedgerState upToFirst = new LedgerState(fingerprint, dataset);
    upToFirst.apply("the new versions up to " + first, new LedgerSegment(fingerprint, dataset,
        versions.stream().filter(summarised -> summarised.version() <= first).toList(),
        opens.stream().filter(open -> open.fromVersion() <= first).toList(),
        closes.stream().filter(close -> close.atVersion() <= first).toList()));
    List<Open> keptOpens = new ArrayList<>();
    upToFirst.openElements().forEach(element -> keptOpens.add(new Open(element, first)));
    opens.stream().filter(open -> open.fromVersion() > first).forEach(keptOpens::add);
    List<Close> keptCloses = closes.stream().filter(close -> close.atVersion() > first).toList();
    return new LedgerSegment(fingerprint, dataset, above, keptOpens, keptCloses, true);
  }

  /** An element starts being referenced at {@code fromVersion}. */
  public record Open(LedgerElement element, long fromVersion) implements Serializable {
    public Open {
      Objects.requireNonNull(element, "element");
    }
  }

  /** An element referenced until just before {@code atVersion} is not referenced by it. */
  public record Close(LedgerElement element, long atVersion) implements Serializable {
    public Close {
      Objects.requireNonNull(element, "element");
    }
  }

  /** The file's bytes. */
  public byte[] encode() {
    return frame().encode(this::writeRecords);
  }

  /**
   * Writes the file to {@code sink} as it is encoded, never whole in memory (a first run's segment
   * holds every file of the table's history); flushes {@code sink} and leaves it open.
   *
   * @return the reference a commit names it by
   */
  LedgerCommit.SegmentRef writeTo(String name, OutputStream sink) throws IOException {
    LedgerFile.Written written = frame().write(sink, this::writeRecords);
    return new LedgerCommit.SegmentRef(name, written.length(), written.crc32c());
  }

  private LedgerFile frame() {
    return firstVersionWhole ? FIRST_WHOLE : FILE;
  }

  private void writeRecords(DataOutputStream out) throws IOException {
    out.writeUTF(fingerprint);
    out.writeUTF(dataset.dir());
    out.writeInt(versions.size());
    for (LedgerVersion version : versions) {
      version.writeTo(out);
    }
    out.writeInt(opens.size());
    for (Open open : opens) {
      writeElement(out, open.element());
      out.writeLong(open.fromVersion());
    }
    out.writeInt(closes.size());
    for (Close close : closes) {
      writeElement(out, close.element());
      out.writeLong(close.atVersion());
    }
  }

  /** Decodes a segment file; {@code name} is for the message. */
  public static LedgerSegment decode(String name, byte[] content) {
    return decode(name, content, new LedgerElements()::canonical);
  }

  /**
   * As {@link #decode(String, byte[])}, each element as {@code canonical} gives it: one instance per
   * element (its open and close, in this segment and the fold's others) instead of one per record,
   * which on a ledger of ~920,000 files is most of what a decoded segment holds.
   */
  static LedgerSegment decode(String name, byte[] content, UnaryOperator<LedgerElement> canonical) {
    return decode(name, new ByteArrayInputStream(content), content.length, canonical);
  }

  /**
   * As {@link #decode(String, byte[], UnaryOperator)}, from {@code content} holding {@code length}
   * bytes as they pass ({@link LedgerFile#decode(String, InputStream, long, LedgerFile.Reader)}):
   * a segment's bytes need not be whole in memory ({@link SegmentReader}).
   */
  static LedgerSegment decode(String name, InputStream content, long length, UnaryOperator<LedgerElement> canonical) {
    // The format number picks the frame; any other number, or a file too short to hold one, fails
    // the frame's own checks.
    BufferedInputStream in = new BufferedInputStream(content, FORMAT_AT + Integer.BYTES);
    boolean firstWhole;
    try {
      in.mark(FORMAT_AT + Integer.BYTES);
      byte[] head = in.readNBytes(FORMAT_AT + Integer.BYTES);
      in.reset();
      firstWhole = head.length == FORMAT_AT + Integer.BYTES && ByteBuffer.wrap(head, FORMAT_AT, Integer.BYTES).getInt() == 2;
    } catch (IOException e) {
      throw new LedgerFormatException(name, "records do not decode: " + e.getMessage());
    }
    return (firstWhole ? FIRST_WHOLE : FILE).decode(name, in, length, frameIn -> {
      String fingerprint = frameIn.readUTF();
      DatasetRef dataset = new DatasetRef(frameIn.readUTF());
      int versionCount = count(frameIn, name);
      List<LedgerVersion> versions = new ArrayList<>(capacity(versionCount, frameIn, VERSION_BYTES));
      for (int i = versionCount; i > 0; i--) {
        versions.add(new LedgerVersion(frameIn.readLong(), frameIn.readUTF(), frameIn.readLong(), frameIn.readLong(), frameIn.readLong()));
      }
      int openCount = count(frameIn, name);
      List<Open> opens = new ArrayList<>(capacity(openCount, frameIn, CHANGE_BYTES));
      for (int i = openCount; i > 0; i--) {
        opens.add(new Open(canonical.apply(readElement(frameIn, name)), frameIn.readLong()));
      }
      int closeCount = count(frameIn, name);
      List<Close> closes = new ArrayList<>(capacity(closeCount, frameIn, CHANGE_BYTES));
      for (int i = closeCount; i > 0; i--) {
        closes.add(new Close(canonical.apply(readElement(frameIn, name)), frameIn.readLong()));
      }
      return new LedgerSegment(fingerprint, dataset, versions, opens, closes, firstWhole);
    });
  }

  /**
   * A list's room for {@code count} records, bounded by what the bytes left can hold at
   * {@code recordBytes} each at least: a damaged count fails as the checksum does, not as a heap
   * reserved for records that are not there.
   */
  private static int capacity(int count, DataInputStream in, int recordBytes) throws IOException {
    return Math.min(count, in.available() / recordBytes);
  }

  static int count(DataInputStream in, String name) throws IOException {
    int count = in.readInt();
    if (count < 0 || count > in.available()) {
      throw new LedgerFormatException(name, "impossible record count " + count);
    }
    return count;
  }

  static void writeElement(DataOutputStream out, LedgerElement element) throws IOException {
    out.writeUTF(element.key());
    out.writeUTF(element.kind().name());
    out.writeBoolean(element.certain());
  }

  static LedgerElement readElement(DataInputStream in, String name) throws IOException {
    String key = in.readUTF();
    String kind = in.readUTF();
    boolean certain = in.readBoolean();
    try {
      return new LedgerElement(key, FileKind.valueOf(kind), certain);
    } catch (IllegalArgumentException unknown) {
      throw new LedgerFormatException(name, "unknown file kind " + kind);
    }
  }
}
