package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * One commit of the ledger: the segments that make it up, in fold order, each with its length and
 * checksum, so that a segment that was replaced, cut short or lost is noticed before it is used.
 * Commit files are created with create-if-absent and never changed: the highest generation is the
 * ledger. Written as {@code key=value} lines with a checksum line and {@code end} last, so that a
 * file cut short by a dying writer never parses.
 *
 * @param generation its number; the next commit is {@code generation + 1}
 * @param fingerprint the table and dataset it describes ({@link Ledger#fingerprint})
 * @param dataset the dataset it describes, written as its directory ({@link DatasetRef#dir})
 * @param endVersion the newest version summarised
 * @param segments the segment files, oldest first
 */
public record LedgerCommit(long generation, String fingerprint, DatasetRef dataset, long endVersion, List<SegmentRef> segments) {
  private static final int FORMAT = 1;
  private static final String END = "end";

  public LedgerCommit {
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(dataset, "dataset");
    segments = List.copyOf(segments);
  }

  /** A segment file named by a commit. */
  public record SegmentRef(String name, long length, long crc32c) {
    public SegmentRef {
      Objects.requireNonNull(name, "name");
      if (name.isEmpty() || name.contains("/") || name.contains(" ")) {
        throw new IllegalArgumentException("a segment name is one path segment without spaces: " + name);
      }
    }

    /** Whether {@code content} is this segment's. */
    public boolean matches(byte[] content) {
      return content.length == length && crc(content) == crc32c;
    }
  }

  static long crc(byte[] content) {
    CRC32C crc = new CRC32C();
    crc.update(content);
    return crc.getValue();
  }

  public byte[] encode() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("format", Integer.toString(FORMAT));
    fields.put("generation", Long.toString(generation));
    fields.put("fingerprint", fingerprint);
    fields.put("dataset", dataset.dir());
    fields.put("end_version", Long.toString(endVersion));
    StringBuilder text = new StringBuilder();
    fields.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    for (SegmentRef segment : segments) {
      text.append("segment=").append(segment.name()).append(' ').append(segment.length()).append(' ')
          .append(Long.toHexString(segment.crc32c())).append('\n');
    }
    String body = text.toString();
    return (body + "checksum=" + Long.toHexString(crc(body.getBytes(StandardCharsets.UTF_8))) + "\n" + END + "\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Decodes a commit file; {@code name} is for the message. */
  public static LedgerCommit decode(String name, byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    if (!text.endsWith("\n" + END + "\n")) {
      throw new LedgerFormatException(name, "commit cut short (no end line)");
    }
    int checksumAt = text.lastIndexOf("checksum=");
    if (checksumAt < 0) {
      throw new LedgerFormatException(name, "commit without checksum");
    }
    String body = text.substring(0, checksumAt);
    String recorded = text.substring(checksumAt + "checksum=".length(), text.length() - END.length() - 2);
    if (!recorded.equals(Long.toHexString(crc(body.getBytes(StandardCharsets.UTF_8))))) {
      throw new LedgerFormatException(name, "commit checksum mismatch");
    }
    Map<String, String> fields = new LinkedHashMap<>();
    List<SegmentRef> segments = new ArrayList<>();
    try {
      for (String line : body.split("\n")) {
        int eq = line.indexOf('=');
        if (eq <= 0) {
          throw new LedgerFormatException(name, "line without key: " + line);
        }
        String key = line.substring(0, eq);
        String value = line.substring(eq + 1);
        if (key.equals("segment")) {
          String[] parts = value.split(" ");
          if (parts.length != 3) {
            throw new LedgerFormatException(name, "segment line is not <name> <length> <crc>: " + value);
          }
          segments.add(new SegmentRef(parts[0], Long.parseLong(parts[1]), Long.parseUnsignedLong(parts[2], 16)));
        } else {
          fields.put(key, value);
        }
      }
      if (!Integer.toString(FORMAT).equals(fields.get("format"))) {
        throw new LedgerFormatException(name, "commit format " + fields.get("format") + ", this release reads " + FORMAT);
      }
      return new LedgerCommit(
          Long.parseLong(required(fields, "generation", name)),
          required(fields, "fingerprint", name),
          new DatasetRef(required(fields, "dataset", name)),
          Long.parseLong(required(fields, "end_version", name)),
          segments);
    } catch (IllegalArgumentException e) {
      throw new LedgerFormatException(name, "commit does not parse: " + e.getMessage());
    }
  }

  private static String required(Map<String, String> fields, String key, String name) {
    String value = fields.get(key);
    if (value == null) {
      throw new LedgerFormatException(name, "commit lacks " + key);
    }
    return value;
  }
}
