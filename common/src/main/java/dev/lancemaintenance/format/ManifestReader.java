package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Parser;
import dev.lancemaintenance.proto.CleanupViewProtos;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.proto.TransactionProtos;
import dev.lancemaintenance.storage.TableStorage;
import java.util.List;
import java.util.Optional;

/**
 * Decodes one manifest file into a {@link Manifest}: footer, manifest message, index section and
 * embedded transaction. Protobuf types end here; callers see only our records.
 *
 * <p>Every deviation from the layout raises {@link CorruptTableException} naming the file, and a
 * reader feature this class does not understand raises {@link UnsupportedFeatureException}: a
 * manifest we cannot read fully must stop maintenance, never be skipped.
 */
public final class ManifestReader {
  private ManifestReader() {}

  /** Reads the manifest at {@code location}, with one ranged read for most files. */
  public static Manifest read(TableStorage storage, ManifestLocation location) {
    ManifestFile file = ManifestFile.open(storage, location);
    TableProtos.Manifest proto = parse(file, file.manifestBytes(), TableProtos.Manifest.parser(), "manifest");
    FeatureFlags.checkReadable(storage.location().toString(), file.path(), proto.getReaderFeatureFlags());
    ManifestDecoder decoder = new ManifestDecoder(file);
    return new Manifest(
        file.path(),
        proto.getVersion(),
        decoder.timestampNanos(proto),
        ManifestDecoder.writer(proto),
        proto.getReaderFeatureFlags(),
        proto.getWriterFeatureFlags(),
        proto.hasBranch() ? Optional.of(proto.getBranch()) : Optional.empty(),
        proto.getTransactionFile(),
        ManifestDecoder.basePaths(proto),
        decoder.fragments(proto),
        indices(file, decoder, proto),
        transaction(file, proto),
        proto.getConfigMap());
  }

  /**
   * Reads only what names files: the version, the timestamp and the references, resolved by {@code
   * scanner} (which caches across the consecutive manifests of one dataset). Refuses exactly what
   * {@link #read} refuses.
   */
  public static ScannedManifest scan(TableStorage storage, ManifestLocation location, ReferenceScanner scanner) {
    return scan(storage, ManifestFile.open(storage, location), scanner);
  }

  /** {@link #scan} of a manifest whose opening read is done ({@link ManifestReadAhead}). */
  static ScannedManifest scan(TableStorage storage, ManifestFile file, ReferenceScanner scanner) {
    SplitManifest manifest = SplitManifest.split(file, file.manifestBytes());
    CleanupViewProtos.ManifestFilesView view = manifest.view();
    FeatureFlags.checkReadable(storage.location().toString(), file.path(), view.getReaderFeatureFlags());
    List<TableProtos.IndexMetadata> indices = view.hasIndexSection()
        ? indexSection(file, view.getIndexSection()).getIndicesList()
        : List.of();
    return scanner.scan(file, manifest, indices);
  }

  private static List<IndexEntry> indices(ManifestFile file, ManifestDecoder decoder, TableProtos.Manifest proto) {
    // Presence, not value: the index section is often the first thing in the file, at offset 0.
    if (!proto.hasIndexSection()) {
      return List.of();
    }
    return decoder.indices(indexSection(file, proto.getIndexSection()));
  }

  private static TableProtos.IndexSection indexSection(ManifestFile file, long offset) {
    ByteString bytes = file.section(offset, "index section");
    return parse(file, bytes, TableProtos.IndexSection.parser(), "index section");
  }

  private static Optional<TransactionSummary> transaction(ManifestFile file, TableProtos.Manifest proto) {
    if (!proto.hasTransactionSection()) {
      return Optional.empty();
    }
    ByteString bytes = file.section(proto.getTransactionSection(), "transaction section");
    return Optional.of(ManifestDecoder.transaction(
        parse(file, bytes, TransactionProtos.Transaction.parser(), "embedded transaction")));
  }

  private static <T> T parse(ManifestFile file, ByteString bytes, Parser<T> parser, String what) {
    try {
      // Bytes fields alias the buffer instead of copying it (the file-naming view declares the
      // schema, the fragments and per-file column lists as bytes, so they cost nothing to skip).
      // The bytes are a view of the file's (see ManifestFile#bytes), so the stream may alias them.
      CodedInputStream input = bytes.newCodedInput();
      input.enableAliasing(true);
      return parser.parseFrom(input);
    } catch (InvalidProtocolBufferException e) {
      throw file.corrupt(what + " is not a valid protobuf message: " + e.getMessage(), e);
    }
  }
}
