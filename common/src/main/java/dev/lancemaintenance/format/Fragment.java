package dev.lancemaintenance.format;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One fragment of a version: the files holding its rows and, if rows were deleted, its deletion file.
 *
 * @param id unique within the table's history
 * @param files its data files
 * @param deletionFile absent when no row was deleted
 * @param physicalRows rows written, deleted ones included (0 when a very old writer did not record it)
 * @param externalFiles files holding this fragment's row ids or row version sequences when they were
 *     too large to inline, relative to the manifest's dataset directory (Lance 7 always inlines them)
 */
public record Fragment(
    long id,
    List<DataFile> files,
    Optional<DeletionFile> deletionFile,
    long physicalRows,
    List<String> externalFiles) {
  public Fragment {
    files = List.copyOf(files);
    Objects.requireNonNull(deletionFile, "deletionFile");
    externalFiles = List.copyOf(externalFiles);
  }
}
