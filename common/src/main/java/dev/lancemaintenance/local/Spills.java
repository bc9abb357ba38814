package dev.lancemaintenance.local;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.LeaseHolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * The local engine's shuffle: marks and listed files hash-partitioned by reference key, plus the
 * expired manifests. Records stay in memory up to the run's {@link SpillBudget} (a table of a few
 * thousand versions writes, reads back and deletes no spill file: docs/benchmarks.md, "The daily
 * run's fixed costs on local disk") and go to files under one temporary
 * directory above it. The decision then holds one partition's marks in memory at a time, so memory
 * grows with the budget plus files / partitions, not with files. Decided files wait in their
 * partition's spill until every partition is decided, so the run can still refuse before its first
 * delete.
 *
 * <p>The directory, {@code lance-cleanup-<random>}, made when the first record goes to disk ({@link
 * SpillDirectory}), holds the table's path lists, so a run that is killed ({@code kill -9}) would
 * leave it behind for good. Each run therefore marks its directory
 * with its process ({@value #OWNER_FILE}: a {@link LeaseHolder}'s pid, start time and machine), and
 * removes, before it spills, the directories of runs whose process is known to be dead on this
 * machine. Directories of live runs, of other machines (a shared temp directory) and unmarked ones
 * are left alone.
 */
final class Spills implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Spills.class);
  private final SpillDirectory directory;
  private final List<SpillFile<ReferenceMark>> marks = new ArrayList<>();
  private final List<SpillFile<FileEntry>> files = new ArrayList<>();
  private final List<SpillFile<CandidateFile>> decided = new ArrayList<>();
  /** The storage report's marks (its mark stage records ages, not states); empty in a cleanup. */
  private final List<SpillFile<ReferenceAge>> ages = new ArrayList<>();
  private final SpillFile<CandidateFile> expiredManifests;
  /** The removal of dead runs' spills, under way beside the run; awaited by {@link #close}. */
  private final CompletableFuture<Void> deadRunsRemoved;

  static final String PREFIX = "lance-cleanup-";
  static final String OWNER_FILE = "owner";

  Spills(Path parent, int partitions) {
    this(parent, partitions, new SpillBudget(SpillBudget.DEFAULT_RECORDS));
  }

  /**
   * Spills that hold at most {@code budget}'s records in memory. Their directory is made (and marked
   * with this process) when the first record goes to disk ({@link SpillDirectory}); the spills of
   * dead runs are removed beside the run, whether or not this run ever needs its own, and before
   * {@link #close} returns.
   *
   * <p>Beside, not before: finding them lists the whole spill parent ({@code java.io.tmpdir} by
   * default; a millisecond in a row at the start of every run where it holds a thousand entries),
   * and nothing the run does depends on it. It touches only directories marked by a process that
   * died on this machine: this run's own directory is marked by this live process, and until its
   * mark is written it is unmarked, which the removal leaves alone too (so does a directory a
   * concurrent run is making).
   */
  Spills(Path parent, int partitions, SpillBudget budget) {
    this.deadRunsRemoved = DaemonThreads.beside("lance-spill-sweep", () -> {
      try {
        removeSpillsOfDeadRuns(parent);
      } catch (RuntimeException e) {
        // Housekeeping of other runs' leftovers: it decides nothing in this run, so it never fails it.
        LOG.warn("lance cleanup: cannot remove the spills of dead runs in {}: {}", parent, e.toString());
      }
      return null;
    });
    this.directory = new SpillDirectory(parent);
    for (int p = 0; p < partitions; p++) {
      marks.add(new SpillFile<>(directory, "marks-" + p, Codecs.MARK, budget));
      files.add(new SpillFile<>(directory, "files-" + p, Codecs.FILE, budget));
      decided.add(new SpillFile<>(directory, "decided-" + p, Codecs.CANDIDATE, budget));
      ages.add(new SpillFile<>(directory, "ages-" + p, Codecs.AGE, budget));
    }
    expiredManifests = new SpillFile<>(directory, "expired-manifests", Codecs.CANDIDATE, budget);
  }

  /** Deletes the spill directories under {@code parent} whose run's process died on this machine. */
  static void removeSpillsOfDeadRuns(Path parent) {
    if (!Files.isDirectory(parent)) {
      return;
    }
    List<Path> candidates;
    try (java.util.stream.Stream<Path> entries = Files.list(parent)) {
      candidates = entries.filter(p -> p.getFileName().toString().startsWith(PREFIX) && Files.isDirectory(p)).toList();
    } catch (IOException e) {
      LOG.warn("lance cleanup: cannot look for spills of dead runs in {}: {}", parent, e.getMessage());
      return;
    }
    for (Path candidate : candidates) {
      if (ownerDied(candidate)) {
        try (java.util.stream.Stream<Path> files = Files.list(candidate)) {
          for (Path file : files.toList()) {
            Files.deleteIfExists(file);
          }
          Files.deleteIfExists(candidate);
          LOG.info("lance cleanup: removed the spill directory {} of a run that died", candidate);
        } catch (IOException e) {
          LOG.warn("lance cleanup: cannot remove the spill directory {} of a dead run: {}", candidate, e.getMessage());
        }
      }
    }
  }

  private static boolean ownerDied(Path spill) {
    try {
      String[] lines = Files.readString(spill.resolve(OWNER_FILE)).split("\n");
      if (lines.length < 3) {
        return false;
      }
      LeaseHolder owner = new LeaseHolder("spill", "", Long.parseLong(lines[0].trim()), Long.parseLong(lines[1].trim()), lines[2].trim());
      return owner.diedOnThisMachine();
    } catch (IOException | RuntimeException unmarked) {
      return false;
    }
  }

  int partitions() {
    return marks.size();
  }

  /**
   * The marks and listed files spilled so far when every one of them is still in memory; empty once
   * any went to disk (a table above the run's budget).
   */
  OptionalLong marksAndFilesInMemory() {
    long records = 0;
    for (int p = 0; p < partitions(); p++) {
      if (!marks.get(p).inMemory() || !files.get(p).inMemory()) {
        return OptionalLong.empty();
      }
      records += marks.get(p).count() + files.get(p).count();
    }
    return OptionalLong.of(records);
  }

  void addMark(ReferenceMark mark) {
    marks.get(ReferenceKeys.partitionOf(mark.key(), partitions())).append(mark);
  }

  void addAge(ReferenceAge age) {
    ages.get(ReferenceKeys.partitionOf(age.key(), partitions())).append(age);
  }

  SpillFile<ReferenceAge> ages(int partition) {
    return ages.get(partition);
  }

  /** Files go to the partition of their reference key in the dataset being cleaned. */
  void addFile(FileEntry file, DatasetRef dataset) {
    files.get(ReferenceKeys.partitionOf(ReferenceKeys.keyOf(dataset, file.path()), partitions())).append(file);
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
    ages.forEach(SpillFile::close);
    expiredManifests.close();
    try {
      directory.delete();
    } finally {
      // It logs what it could not remove and never throws for it; awaited so that no removal outlives the run.
      deadRunsRemoved.join();
    }
  }
}
