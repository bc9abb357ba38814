package dev.lancemaintenance.benchmarks.generate;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.proto.TransactionProtos;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The byte layout of a Lance 7 manifest file, both ways: the length-prefixed embedded transaction at
 * offset 0, the length-prefixed index section (when the version has indices), the length-prefixed
 * manifest, and the 16-byte footer (i64 manifest position, u16 major 0, u16 minor 2, {@code LANC});
 * every integer little-endian.
 *
 * <p>Decoding is for the seed only (a table the SDK just wrote); the project's reader is {@code
 * dev.lancemaintenance.format.ManifestReader}, which checks far more.
 */
record ManifestBytes(TableProtos.Manifest manifest, TableProtos.IndexSection indexSection) {
  private static final int PREFIX = Integer.BYTES;
  private static final int FOOTER = 16;
  private static final short MAJOR = 0;
  private static final short MINOR = 2;
  private static final byte[] MAGIC = "LANC".getBytes(StandardCharsets.US_ASCII);

  /** Decodes the newest manifest of the table at {@code root} (V2 names list newest first). */
  static ManifestBytes readLatest(Path root) {
    Path versions = root.resolve("_versions");
    try (Stream<Path> files = Files.list(versions)) {
      Path newest = files.filter(p -> p.getFileName().toString().endsWith(".manifest"))
          .min(Path::compareTo)
          .orElseThrow(() -> new IllegalStateException("no manifest in " + versions));
      return decode(newest, Files.readAllBytes(newest));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the manifests of " + root, e);
    }
  }

  private static ManifestBytes decode(Path file, byte[] bytes) throws InvalidProtocolBufferException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    if (!Arrays.equals(bytes, bytes.length - MAGIC.length, bytes.length, MAGIC, 0, MAGIC.length)) {
      throw new IllegalStateException(file + " has no LANC footer");
    }
    int position = Math.toIntExact(buffer.getLong(bytes.length - FOOTER));
    TableProtos.Manifest manifest = TableProtos.Manifest.parseFrom(section(buffer, position));
    TableProtos.IndexSection indices = manifest.hasIndexSection()
        ? TableProtos.IndexSection.parseFrom(section(buffer, Math.toIntExact(manifest.getIndexSection())))
        : TableProtos.IndexSection.getDefaultInstance();
    return new ManifestBytes(manifest, indices);
  }

  private static ByteBuffer section(ByteBuffer file, int offset) {
    int length = file.getInt(offset);
    return file.duplicate().position(offset + PREFIX).limit(offset + PREFIX + length).slice();
  }

  /**
   * Encodes one manifest file. Sets the manifest's {@code transaction_section} and (when {@code
   * indices} is present) {@code index_section} to where those sections land.
   */
  static byte[] encode(
      TransactionProtos.Transaction transaction,
      Optional<TableProtos.IndexSection> indices,
      TableProtos.Manifest.Builder manifest) {
    byte[] txn = transaction.toByteArray();
    byte[] index = indices.map(TableProtos.IndexSection::toByteArray).orElse(null);
    long indexOffset = PREFIX + txn.length;
    manifest.setTransactionSection(0);
    if (index != null) {
      manifest.setIndexSection(indexOffset);
    } else {
      manifest.clearIndexSection();
    }
    byte[] body = manifest.build().toByteArray();
    int manifestPosition = (int) indexOffset + (index == null ? 0 : PREFIX + index.length);
    ByteBuffer out = ByteBuffer.allocate(manifestPosition + PREFIX + body.length + FOOTER)
        .order(ByteOrder.LITTLE_ENDIAN);
    out.putInt(txn.length).put(txn);
    if (index != null) {
      out.putInt(index.length).put(index);
    }
    out.putInt(body.length).put(body);
    out.putLong(manifestPosition).putShort(MAJOR).putShort(MINOR).put(MAGIC);
    return out.array();
  }
}
