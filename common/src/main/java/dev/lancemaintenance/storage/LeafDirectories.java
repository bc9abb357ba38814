package dev.lancemaintenance.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Tells which local directories provably hold no subdirectory, from one {@code stat} of the
 * directory itself, so that a listing of such a directory can give names without a {@code stat}
 * per entry (a directory stream gives names only; Java has no portable way to its entry types).
 *
 * <p>File systems that count a directory's subdirectories in its link count (2 plus one per
 * subdirectory's {@code ..}: ext2/3/4, XFS, tmpfs) give a leaf a link count of exactly 2. Others do
 * not keep that count (btrfs always answers 1; network and FUSE file systems may answer anything),
 * so there no directory is a leaf and every entry is read, as before. The file system is looked up
 * once per device.
 *
 * <p>A subdirectory made after the {@code stat} while the listing runs may then be listed as a
 * name; reading its attributes later finds a directory, and it counts as not listed, as for a
 * listing that started a moment earlier.
 */
final class LeafDirectories {
  /** File systems whose directory link count is 2 plus the number of subdirectories. */
  private static final Set<String> COUNTING_SUBDIRECTORIES = Set.of("ext2", "ext3", "ext4", "xfs", "tmpfs");

  private final Map<Object, Boolean> countingByDevice = new ConcurrentHashMap<>();

  /** Whether {@code dir} has no subdirectory; false whenever that cannot be known. */
  boolean isLeaf(Path dir) throws IOException {
    Map<String, Object> attributes;
    try {
      attributes = Files.readAttributes(dir, "unix:nlink,dev", LinkOption.NOFOLLOW_LINKS);
    } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
      return false;
    }
    if (!Integer.valueOf(2).equals(attributes.get("nlink"))) {
      return false;
    }
    try {
      return countingByDevice.computeIfAbsent(attributes.get("dev"), device -> countsSubdirectories(dir));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private static boolean countsSubdirectories(Path dir) {
    try {
      return COUNTING_SUBDIRECTORIES.contains(Files.getFileStore(dir).type());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
