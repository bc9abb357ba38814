package dev.lancemaintenance.runs;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The text of one record file: {@code key=value} lines, a CRC-32C of them, and {@code end}, so that
 * a file cut short by a dying writer, or changed by hand, never parses. Values are one line each:
 * line breaks in them (an error's stack, a path with a newline) are written as spaces.
 */
final class RecordText {
  private static final String END = "end";
  /** The last line of every record file, line break included. */
  static final byte[] END_LINE = (END + "\n").getBytes(StandardCharsets.UTF_8);
  private static final String CHECKSUM = "checksum=";

  private RecordText() {}

  static byte[] encode(Map<String, String> fields) {
    StringBuilder body = new StringBuilder();
    fields.forEach((key, value) -> body.append(key).append('=').append(oneLine(value)).append('\n'));
    return (body + CHECKSUM + crc(body.toString()) + "\n" + END + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** The fields of a record file; {@link IllegalArgumentException} saying why not. */
  static Map<String, String> decode(byte[] content) {
    String body = verifiedBody(content);
    Map<String, String> fields = new LinkedHashMap<>();
    for (String line : body.split("\n")) {
      int eq = line.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("line without key: " + line);
      }
      fields.put(line.substring(0, eq), line.substring(eq + 1));
    }
    return fields;
  }

  /**
   * The lines before the checksum of a whole record file, once its end line and checksum hold;
   * {@link IllegalArgumentException} saying why not.
   */
  static String verifiedBody(byte[] content) {
    String text = new String(content, StandardCharsets.UTF_8);
    if (!text.endsWith("\n" + END + "\n")) {
      throw new IllegalArgumentException("cut short (no end line)");
    }
    int checksumAt = text.lastIndexOf(CHECKSUM);
    if (checksumAt < 0) {
      throw new IllegalArgumentException("no checksum line");
    }
    String body = text.substring(0, checksumAt);
    String recorded = text.substring(checksumAt + CHECKSUM.length(), text.length() - END.length() - 2);
    if (!recorded.equals(crc(body))) {
      throw new IllegalArgumentException("checksum mismatch");
    }
    return body;
  }

  /** The closing lines of a record file whose lines so far have the CRC-32C {@code crc}. */
  static byte[] trailer(CRC32C crc) {
    return (CHECKSUM + Long.toHexString(crc.getValue()) + "\n" + END + "\n").getBytes(StandardCharsets.UTF_8);
  }

  /** {@code key=value} and a line break, one line whatever the value holds. */
  static String line(String key, String value) {
    return key + "=" + oneLine(value) + "\n";
  }

  private static String oneLine(String value) {
    return value.replace('\r', ' ').replace('\n', ' ');
  }

  private static String crc(String body) {
    CRC32C crc = new CRC32C();
    crc.update(body.getBytes(StandardCharsets.UTF_8));
    return Long.toHexString(crc.getValue());
  }
}
