package dev.lancemaintenance.testing;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancemaintenance.proto.TableProtos;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Damages real manifests the SDK wrote, for tests of what maintenance does with a table it must
 * not trust: cut one short, or re-encode it with one field changed. Never builds a manifest from
 * nothing; the rest of the file stays exactly as Lance wrote it.
 */
public final class ManifestEdits {
  private static final int FOOTER_LENGTH = 16;

  private ManifestEdits() {}

  /** Keeps the first half of the file, as a writer dying mid-upload would. */
  public static void truncateToHalf(Path manifest) {
    byte[] bytes = readAll(manifest);
    writeAll(manifest, Arrays.copyOf(bytes, bytes.length / 2));
  }

  /**
   * Re-encodes the manifest with the path of the first data file of its first fragment replaced.
   * The manifest message sits just before the 16-byte footer behind a u32 length; the sections it
   * points at (index, transaction) lie before it, so their offsets stay valid.
   */
  public static void replaceFirstDataFilePath(Path manifest, String newPath) {
    byte[] bytes = readAll(manifest);
    int position = messagePosition(bytes);
    TableProtos.Manifest parsed = parse(manifest, bytes);
    TableProtos.Manifest.Builder edited = parsed.toBuilder();
    edited.getFragmentsBuilder(0).getFilesBuilder(0).setPath(newPath);
    byte[] message = edited.build().toByteArray();

    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bytes, 0, position);
    out.writeBytes(ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).putInt(message.length).array());
    out.writeBytes(message);
    out.write(bytes, bytes.length - FOOTER_LENGTH, FOOTER_LENGTH);
    writeAll(manifest, out.toByteArray());
  }

  /** The path (relative to {@code data/}) of the first data file of the manifest's first fragment. */
  public static String firstDataFilePath(Path manifest) {
    return parse(manifest, readAll(manifest)).getFragments(0).getFiles(0).getPath();
  }

  /**
   * Flips the lowest bit of the first byte of the manifest message (the tag of its first field),
   * as a bad disk or a faulty copy would: the footer stays valid, the message does not.
   */
  public static void flipFirstMessageBit(Path manifest) {
    byte[] bytes = readAll(manifest);
    bytes[messagePosition(bytes) + Integer.BYTES] ^= 1;
    writeAll(manifest, bytes);
  }

  private static int messagePosition(byte[] bytes) {
    ByteBuffer footer = ByteBuffer.wrap(bytes, bytes.length - FOOTER_LENGTH, FOOTER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    return Math.toIntExact(footer.getLong());
  }

  private static TableProtos.Manifest parse(Path manifest, byte[] bytes) {
    int position = messagePosition(bytes);
    int length = ByteBuffer.wrap(bytes, position, Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
    try {
      return TableProtos.Manifest.parseFrom(Arrays.copyOfRange(bytes, position + Integer.BYTES, position + Integer.BYTES + length));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not a manifest Lance wrote: " + manifest, e);
    }
  }

  private static byte[] readAll(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeAll(Path file, byte[] bytes) {
    try {
      Files.write(file, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
