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
    ByteBuffer footer = ByteBuffer.wrap(bytes, bytes.length - FOOTER_LENGTH, FOOTER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    int position = Math.toIntExact(footer.getLong());
    int length = ByteBuffer.wrap(bytes, position, Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN).getInt();
    TableProtos.Manifest parsed;
    try {
      parsed = TableProtos.Manifest.parseFrom(Arrays.copyOfRange(bytes, position + Integer.BYTES, position + Integer.BYTES + length));
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("not a manifest Lance wrote: " + manifest, e);
    }
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
