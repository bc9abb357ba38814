package dev.lancemaintenance.local;

import dev.lancemaintenance.storage.LeaseHolder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The directory of one run's spill files, {@code lance-cleanup-<random>} under the spill parent,
 * made and marked with this process ({@value Spills#OWNER_FILE}: a {@link LeaseHolder}'s pid, start
 * time and machine) when the first spill file goes to disk, not before: a run whose records all fit
 * in memory (a table of a few thousand versions) makes, marks and removes no directory, which was a
 * {@code mkdir}, a write, an {@code unlink} and an {@code rmdir} on every run. What a killed run
 * leaves is unchanged in kind: nothing when it held everything in memory, otherwise a marked
 * directory that the next run removes ({@link Spills#removeSpillsOfDeadRuns}); a spill file exists
 * only inside a directory already marked.
 */
final class SpillDirectory {
  private final Path parent;
  /** Null until the first spill file needs it. */
  private Path directory;

  SpillDirectory(Path parent) {
    this.parent = parent;
  }

  /** The path of spill file {@code name}, making and marking the directory first when it is not there yet. */
  synchronized Path file(String name) {
    if (directory == null) {
      directory = make();
    }
    return directory.resolve(name);
  }

  private Path make() {
    try {
      Files.createDirectories(parent);
      Path made = Files.createTempDirectory(parent, Spills.PREFIX);
      LeaseHolder self = LeaseHolder.ofOwner("spill");
      Files.writeString(made.resolve(Spills.OWNER_FILE),
          self.pid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");
      return made;
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create a spill directory under " + parent, e);
    }
  }

  /** Removes the directory and its mark, once every spill file in it was deleted; nothing when none was made. */
  synchronized void delete() {
    if (directory == null) {
      return;
    }
    try {
      Files.deleteIfExists(directory.resolve(Spills.OWNER_FILE));
      Files.deleteIfExists(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete spill directory " + directory, e);
    }
  }
}
