package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.storage.FileEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The local engine's shuffle: marks and listed files hash-partitioned by reference key into files
 * under one temporary directory, plus the expired manifests. The decision then holds one
 * partition's marks in memory at a time, so memory grows with files / partitions, not with files.
 * Decided files wait in their partition's spill until every partition is decided, so the run can
 * still refuse before its first delete.
 */
final class Spills implements AutoCloseable {
  private final Path directory;
  private final List<SpillFile<ReferenceMark>> marks = new ArrayList<>();
  private final List<SpillFile<FileEntry>> files = new ArrayList<>();
  private final List<SpillFile<CandidateFile>> decided = new ArrayList<>();
  private final SpillFile<CandidateFile> expiredManifests;

  Spills(Path parent, int partitions) {
    try {
      this.directory = Files.createTempDirectory(parent, "lance-cleanup-");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill directory under " + parent, e);
    }
    for (int p = 0; p < partitions; p++) {
      marks.add(new SpillFile<>(directory.resolve("marks-" + p), Codecs.MARK));
      files.add(new SpillFile<>(directory.resolve("files-" + p), Codecs.FILE));
      decided.add(new SpillFile<>(directory.resolve("decided-" + p), Codecs.CANDIDATE));
    }
    expiredManifests = new SpillFile<>(directory.resolve("expired-manifests"), Codecs.CANDIDATE);
  }

  int partitions() {
    return marks.size();
  }

  void addMark(ReferenceMark mark) {
    marks.get(ReferenceKeys.partitionOf(mark.key(), partitions())).append(mark);
  }

  /** Files go to the partition of their reference key in the dataset being cleaned. */
  void addFile(FileEntry file, String datasetDir) {
    files.get(ReferenceKeys.partitionOf(ReferenceKeys.keyOf(datasetDir, file.path()), partitions())).append(file);
  }

  void addExpiredManifest(CandidateFile manifest) {
    expiredManifests.append(manifest);
  }

  SpillFile<ReferenceMark> marks(int partition) {
    return marks.get(partition);
  }

  SpillFile<FileEntry> files(int partition) {
    return files.get(partition);
  }

  /** The files the decision selected in one partition. */
  SpillFile<CandidateFile> decided(int partition) {
    return decided.get(partition);
  }

  SpillFile<CandidateFile> expiredManifests() {
    return expiredManifests;
  }

  @Override
  public void close() {
    marks.forEach(SpillFile::close);
    files.forEach(SpillFile::close);
    decided.forEach(SpillFile::close);
    expiredManifests.close();
    try {
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill directory " + directory, e);
    }
  }
}
