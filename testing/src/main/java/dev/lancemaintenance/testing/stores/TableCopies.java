package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.TableLease;

import dev.lancemaintenance.testing.FileTimes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.SortedMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Moves a real table between local disk and a Hadoop file system that keeps modification times
 * (HDFS), file by file, setting each copy's mtime to the original's: Lance's cleanup compares
 * mtimes with manifest timestamps, so a copy that took "now" as mtime would be another table.
 * Object stores cannot set mtimes; tables there are written by the SDK itself.
 */
public final class TableCopies {
  private TableCopies() {}

  /** Copies the table directory {@code local} to the new directory {@code remoteUri}. */
  public static void upload(Path local, String remoteUri, Configuration conf) {
    org.apache.hadoop.fs.Path target = new org.apache.hadoop.fs.Path(remoteUri);
    try (FileSystem fs = FileSystem.newInstance(target.toUri(), conf)) {
      if (fs.exists(target)) {
        throw new IllegalArgumentException("copy target exists: " + remoteUri);
      }
      for (String relative : FileTimes.listFiles(local)) {
        Path source = local.resolve(relative);
        org.apache.hadoop.fs.Path copy = new org.apache.hadoop.fs.Path(target, relative);
        fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(source.toUri()), copy);
        fs.setTimes(copy, FileTimes.modificationTime(source).toEpochMilli(), -1);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + local + " to " + remoteUri, e);
    }
  }

  /** Copies the table at {@code remoteUri} to the new local directory {@code local}. */
  public static void download(String remoteUri, Configuration conf, Path local) {
    if (Files.exists(local)) {
      throw new IllegalArgumentException("copy target exists: " + local);
    }
    org.apache.hadoop.fs.Path source = new org.apache.hadoop.fs.Path(remoteUri);
    try (FileSystem fs = FileSystem.newInstance(source.toUri(), conf)) {
      for (var entry : listFiles(fs, source).entrySet()) {
        Path copy = local.resolve(entry.getKey());
        Files.createDirectories(copy.getParent());
        fs.copyToLocalFile(false, new org.apache.hadoop.fs.Path(source, entry.getKey()),
            new org.apache.hadoop.fs.Path(copy.toUri()), true);
        FileTimes.setModificationTime(copy, java.time.Instant.ofEpochMilli(entry.getValue()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot copy " + remoteUri + " to " + local, e);
    }
  }

  /**
   * Table-relative paths of every file under {@code rootUri} with their mtimes (ms), sorted; not the
   * table's maintenance lease (see {@code FileTimes.listFiles}).
   */
  public static SortedMap<String, Long> listFiles(String rootUri, Configuration conf) {
    org.apache.hadoop.fs.Path root = new org.apache.hadoop.fs.Path(rootUri);
    try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
      return listFiles(fs, root);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + rootUri, e);
    }
  }

  private static SortedMap<String, Long> listFiles(FileSystem fs, org.apache.hadoop.fs.Path root)
      throws IOException {
    String prefix = fs.makeQualified(root).toUri().getPath() + "/";
    SortedMap<String, Long> files = new TreeMap<>();
    if (!fs.exists(root)) {
      // An object store has no directories: a prefix whose last object went is simply gone.
      return files;
    }
    RemoteIterator<LocatedFileStatus> statuses = fs.listFiles(root, true);
    while (statuses.hasNext()) {
      LocatedFileStatus status = statuses.next();
      String path = status.getPath().toUri().getPath();
      if (!path.startsWith(prefix)) {
        throw new IllegalStateException(path + " listed outside " + root);
      }
      String relative = path.substring(prefix.length());
      if (!TableLease.isLeaseFile(relative)) {
        files.put(relative, status.getModificationTime());
      }
    }
    return files;
  }
}
