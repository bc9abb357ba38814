package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import dev.lancemaintenance.storage.TableStorage;

/**
 * The byte layout of one manifest file: footer, length-prefixed manifest and the length-prefixed
 * sections it points to (index section, embedded transaction), all located by absolute offset.
 *
 * <p>Reads with ranged requests: the last {@value #TAIL_READ} bytes first, which hold the whole
 * file for most tables, and one more read reaching back to a section only when it starts earlier
 * (manifests of tables with hundreds of thousands of fragments reach tens of MB). On an object store
 * every request costs a round trip, so the first read is sized to take a whole manifest of a few
 * thousand fragments (a 2,000-fragment manifest is about 170 KB) in one GET; nothing is read
 * that the file does not have, and little that decoding skips. Decoding is left to the caller so
 * that a leaner decoder, one that keeps only the fields naming files, can share this class.
 */
final class ManifestFile {
  /**
   * The first read takes the last this many bytes: the whole file for most manifests (one request
   * on an object store), and for bigger ones the footer and the tail of the manifest.
   */
  static final int TAIL_READ = 1024 * 1024;
  private static final int LENGTH_PREFIX = Integer.BYTES;

  private final TableStorage storage;
  private final String table;
  private final String path;
  private final long size;
  private final ManifestFooter footer;
  private byte[] loaded;
  private long loadedStart;

  private ManifestFile(TableStorage storage, String path, long size, byte[] tail) {
    this.storage = storage;
    this.table = storage.location().toString();
    this.path = path;
    this.size = size;
    this.loaded = tail;
    this.loadedStart = size - tail.length;
    this.footer = ManifestFooter.parse(tail, tail.length - ManifestFooter.LENGTH)
        .orElseThrow(() -> corrupt("bad magic: the file does not end with LANC"));
  }

  /** Reads the footer of the manifest at {@code location} and checks it. */
  static ManifestFile open(TableStorage storage, ManifestLocation location) {
    long size = location.size();
    if (size < ManifestFooter.LENGTH) {
      throw new CorruptTableException(storage.location().toString(), location.path(),
          "truncated manifest: " + size + " bytes, shorter than the 16-byte footer");
    }
    int tailLength = (int) Math.min(size, TAIL_READ);
    byte[] tail = storage.read(location.path(), size - tailLength, tailLength);
    ManifestFile file = new ManifestFile(storage, location.path(), size, tail);
    file.checkVersion();
    return file;
  }

  private void checkVersion() {
    if (footer.majorVersion() != ManifestFooter.SUPPORTED_MAJOR) {
      throw unsupported("manifest format version " + footer.majorVersion() + "." + footer.minorVersion());
    }
  }

  String path() {
    return path;
  }

  ManifestFooter footer() {
    return footer;
  }

  /** The manifest message, which must end exactly where the footer begins; a view of the file's bytes. */
  ByteString manifestBytes() {
    long position = footer.manifestPosition();
    long expected = footer.expectedManifestLength(size);
    if (position < 0 || expected < 0) {
      throw corrupt("manifest position " + position + " lies outside the " + size + "-byte file");
    }
    long recorded = lengthAt(position);
    if (recorded != expected) {
      throw corrupt("manifest length " + recorded + " at offset " + position
          + " does not end at the footer (expected " + expected + ")");
    }
    return bytes(position + LENGTH_PREFIX, (int) expected);
  }

  /**
   * The length-prefixed section at {@code offset}, e.g. the index section; it must lie before the
   * manifest. A view of the file's bytes.
   */
  ByteString section(long offset, String what) {
    long end = footer.manifestPosition();
    if (offset < 0 || offset + LENGTH_PREFIX > end) {
      throw corrupt(what + " offset " + offset + " is not before the manifest at " + end);
    }
    long length = lengthAt(offset);
    if (offset + LENGTH_PREFIX + length > end) {
      throw corrupt(what + " at offset " + offset + " with length " + length
          + " runs into the manifest at " + end);
    }
    return bytes(offset + LENGTH_PREFIX, (int) length);
  }

  private long lengthAt(long offset) {
    ByteString prefix = bytes(offset, LENGTH_PREFIX);
    return Integer.toUnsignedLong((prefix.byteAt(0) & 0xff) | (prefix.byteAt(1) & 0xff) << 8
        | (prefix.byteAt(2) & 0xff) << 16 | (prefix.byteAt(3) & 0xff) << 24);
  }

  /**
   * {@code length} bytes at {@code offset}, without a copy: the loaded bytes are never written after
   * they are read (a longer load makes a new array), so a view of them stays valid.
   */
  private ByteString bytes(long offset, int length) {
    if (length > Integer.MAX_VALUE - 8) {
      throw corrupt("section of " + length + " bytes at offset " + offset + " is too large");
    }
    loadFrom(offset);
    return UnsafeByteOperations.unsafeWrap(loaded, (int) (offset - loadedStart), length);
  }

  /** Extends the loaded range back to {@code offset} with one read, when it does not reach it. */
  private void loadFrom(long offset) {
    if (offset >= loadedStart) {
      return;
    }
    long missing = loadedStart - offset;
    if (missing + loaded.length > Integer.MAX_VALUE - 8) {
      throw corrupt("manifest of " + (missing + loaded.length) + " bytes is too large to read");
    }
    byte[] earlier = storage.read(path, offset, (int) missing);
    byte[] combined = new byte[earlier.length + loaded.length];
    System.arraycopy(earlier, 0, combined, 0, earlier.length);
    System.arraycopy(loaded, 0, combined, earlier.length, loaded.length);
    loaded = combined;
    loadedStart = offset;
  }

  UnsupportedFeatureException unsupported(String feature) {
    return new UnsupportedFeatureException(table, path, feature);
  }

  CorruptTableException corrupt(String problem) {
    return new CorruptTableException(table, path, problem);
  }

  CorruptTableException corrupt(String problem, Throwable cause) {
    return new CorruptTableException(table, path, problem, cause);
  }
}
