package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.proto.TransactionProtos;
import com.google.protobuf.Timestamp;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/** Converts our generated protobuf messages into the format records; no I/O. */
final class ManifestDecoder {
  private static final int UUID_BYTES = 16;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final ManifestFile file;

  ManifestDecoder(ManifestFile file) {
    this.file = file;
  }

  long timestampNanos(TableProtos.Manifest proto) {
    return timestampNanos(proto.hasTimestamp(), proto.getTimestamp());
  }

  long timestampNanos(boolean present, Timestamp timestamp) {
    if (!present) {
      // Lance reads a missing timestamp as the epoch, which makes such versions always "old".
      return 0;
    }
    try {
      return Math.addExact(Math.multiplyExact(timestamp.getSeconds(), NANOS_PER_SECOND), timestamp.getNanos());
    } catch (ArithmeticException e) {
      throw file.corrupt("timestamp " + timestamp.getSeconds() + "s does not fit in nanoseconds", e);
    }
  }

  static Optional<WriterVersion> writer(TableProtos.Manifest proto) {
    if (!proto.hasWriterVersion()) {
      return Optional.empty();
    }
    TableProtos.Manifest.WriterVersion writer = proto.getWriterVersion();
    StringBuilder version = new StringBuilder(writer.getVersion());
    if (writer.hasPrerelease()) {
      version.append('-').append(writer.getPrerelease());
    }
    if (writer.hasBuildMetadata()) {
      version.append('+').append(writer.getBuildMetadata());
    }
    return Optional.of(new WriterVersion(writer.getLibrary(), version.toString()));
  }

  static List<BasePath> basePaths(TableProtos.Manifest proto) {
    List<BasePath> result = new ArrayList<>(proto.getBasePathsCount());
    for (TableProtos.BasePath base : proto.getBasePathsList()) {
      result.add(basePath(base));
    }
    return result;
  }

  static BasePath basePath(TableProtos.BasePath base) {
    Optional<String> name = base.hasName() ? Optional.of(base.getName()) : Optional.empty();
    return new BasePath(base.getId(), name, base.getIsDatasetRoot(), base.getPath());
  }

  List<Fragment> fragments(TableProtos.Manifest proto) {
    List<Fragment> result = new ArrayList<>(proto.getFragmentsCount());
    for (TableProtos.DataFragment fragment : proto.getFragmentsList()) {
      result.add(fragment(fragment));
    }
    return result;
  }

  private Fragment fragment(TableProtos.DataFragment proto) {
    if (proto.getOverlaysCount() > 0) {
      // Overlays name data files of their own; Lance guards them with reader flag 64.
      throw file.unsupported("data overlay files (fragment " + Long.toUnsignedString(proto.getId()) + ")");
    }
    List<DataFile> files = new ArrayList<>(proto.getFilesCount());
    for (TableProtos.DataFile data : proto.getFilesList()) {
      files.add(new DataFile(data.getPath(), baseId(data.hasBaseId(), data.getBaseId()), data.getFileSizeBytes()));
    }
    Optional<DeletionFile> deletion =
        proto.hasDeletionFile() ? Optional.of(deletionFile(proto.getDeletionFile(), proto.getId())) : Optional.empty();
    List<String> externals = new ArrayList<>(0);
    if (proto.hasExternalRowIds()) {
      externals.add(proto.getExternalRowIds().getPath());
    }
    if (proto.hasExternalLastUpdatedAtVersions()) {
      externals.add(proto.getExternalLastUpdatedAtVersions().getPath());
    }
    if (proto.hasExternalCreatedAtVersions()) {
      externals.add(proto.getExternalCreatedAtVersions().getPath());
    }
    return new Fragment(proto.getId(), files, deletion, proto.getPhysicalRows(), externals);
  }

  DeletionFile deletionFile(TableProtos.DeletionFile proto, long fragmentId) {
    DeletionFile.Type type = switch (proto.getFileTypeValue()) {
      case TableProtos.DeletionFile.DeletionFileType.ARROW_ARRAY_VALUE -> DeletionFile.Type.ARROW;
      case TableProtos.DeletionFile.DeletionFileType.BITMAP_VALUE -> DeletionFile.Type.BITMAP;
      default -> throw file.corrupt("unknown deletion file type " + proto.getFileTypeValue()
          + " in fragment " + Long.toUnsignedString(fragmentId));
    };
    return new DeletionFile(
        type,
        proto.getReadVersion(),
        proto.getId(),
        baseId(proto.hasBaseId(), proto.getBaseId()),
        proto.getNumDeletedRows());
  }

  List<IndexEntry> indices(TableProtos.IndexSection section) {
    List<IndexEntry> result = new ArrayList<>(section.getIndicesCount());
    for (TableProtos.IndexMetadata index : section.getIndicesList()) {
      result.add(new IndexEntry(uuid(index), index.getName(), index.getDatasetVersion(),
          baseId(index.hasBaseId(), index.getBaseId())));
    }
    return result;
  }

  String uuid(TableProtos.IndexMetadata index) {
    ByteString bytes = index.getUuid().getUuid();
    if (!index.hasUuid() || bytes.size() != UUID_BYTES) {
      throw file.corrupt("index '" + index.getName() + "' has a uuid of " + bytes.size()
          + " bytes, expected " + UUID_BYTES);
    }
    ByteBuffer buffer = bytes.asReadOnlyByteBuffer();
    return new UUID(buffer.getLong(), buffer.getLong()).toString();
  }

  static TransactionSummary transaction(TransactionProtos.Transaction proto) {
    return new TransactionSummary(proto.getReadVersion(), proto.getUuid(), operationName(proto.getOperationCase()));
  }

  /** Lance's operation name from the oneof case: {@code RESERVE_FRAGMENTS} becomes {@code ReserveFragments}. */
  static String operationName(TransactionProtos.Transaction.OperationCase operation) {
    if (operation == TransactionProtos.Transaction.OperationCase.OPERATION_NOT_SET) {
      return "Unknown";
    }
    StringBuilder name = new StringBuilder();
    for (String word : operation.name().split("_")) {
      name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
    }
    return name.toString();
  }

  static OptionalInt baseId(boolean present, int value) {
    return present ? OptionalInt.of(value) : OptionalInt.empty();
  }
}
