package dev.lancemaintenance.format;

import dev.lancemaintenance.storage.TableLocation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One decoded version of a table, in our own types (protobuf classes stay inside this package).
 *
 * @param path the table-relative manifest file it was read from
 * @param version the version number the manifest itself records (authoritative over the file name)
 * @param timestampNanos commit time in nanoseconds since the epoch; 0 when absent, as Lance treats it
 * @param writer the library that wrote it; empty for very old writers
 * @param readerFeatureFlags features a reader must understand (checked by {@link ManifestReader})
 * @param writerFeatureFlags features a writer must understand
 * @param branch the branch this version belongs to; empty on the main line
 * @param transactionFile the file name below {@code _transactions/}; empty when none was written
 * @param basePaths other roots its files may live under
 * @param fragments the fragments of this version
 * @param indices the indices of this version
 * @param transaction the transaction embedded in the manifest file, when the writer embedded one
 * @param config the table config of this version (field 16), e.g. {@code lance.auto_cleanup.*}
 */
public record Manifest(
    String path,
    long version,
    long timestampNanos,
    Optional<WriterVersion> writer,
    long readerFeatureFlags,
    long writerFeatureFlags,
    Optional<String> branch,
    String transactionFile,
    List<BasePath> basePaths,
    List<Fragment> fragments,
    List<IndexEntry> indices,
    Optional<TransactionSummary> transaction,
    Map<String, String> config) {
  public Manifest {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(writer, "writer");
    Objects.requireNonNull(branch, "branch");
    Objects.requireNonNull(transactionFile, "transactionFile");
    basePaths = List.copyOf(basePaths);
    fragments = List.copyOf(fragments);
    indices = List.copyOf(indices);
    Objects.requireNonNull(transaction, "transaction");
    config = Map.copyOf(config);
  }

  /**
   * Every file this version references, resolved to the table root {@code root}.
   *
   * @param dataset the dataset the manifest belongs to: the main table or a branch
   */
  public List<FileReference> references(TableLocation root, DatasetRef dataset) {
    return ReferenceResolver.referencesOf(root, dataset, this);
  }
}
