package dev.lancemaintenance.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The last 16 bytes of a manifest file: the offset of the length-prefixed manifest (i64), the
 * format's major and minor version (u16 each), and the magic {@code LANC}; little-endian.
 *
 * <p>Lance 0.x wrote minor 1 with the manifest alone; Lance 7 writes minor 2, with an embedded
 * transaction at offset 0 and the manifest after it. Either way the manifest ends exactly where the
 * footer begins, and that layout check is what lets us accept a minor version we have not seen.
 */
record ManifestFooter(long manifestPosition, int majorVersion, int minorVersion) {
  static final int LENGTH = 16;
  static final int SUPPORTED_MAJOR = 0;
  private static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);

  /**
   * Parses the footer from the 16 bytes at {@code offset} of {@code bytes}; empty when the magic is
   * not there.
   */
  static Optional<ManifestFooter> parse(byte[] bytes, int offset) {
    if (!Arrays.equals(bytes, offset + 12, offset + LENGTH, MAGIC, 0, MAGIC.length)) {
      return Optional.empty();
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    long position = buffer.getLong();
    int major = Short.toUnsignedInt(buffer.getShort());
    int minor = Short.toUnsignedInt(buffer.getShort());
    return Optional.of(new ManifestFooter(position, major, minor));
  }

  /**
   * The length the u32 prefix at {@link #manifestPosition} must hold in a file of {@code fileSize}
   * bytes, so that the manifest ends where the footer starts; negative when the position leaves no
   * room for the prefix.
   */
  long expectedManifestLength(long fileSize) {
    return fileSize - LENGTH - manifestPosition - Integer.BYTES;
  }
}
