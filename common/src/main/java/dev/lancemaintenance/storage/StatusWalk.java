package dev.lancemaintenance.storage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Lists the files below a directory by walking {@link FileSystem#listStatusIterator}, depth first,
 * holding one iterator per open directory. Used where {@code listFiles} is costly per file.
 */
final class StatusWalk implements RemoteIterator<FileStatus> {
  private final FileSystem fs;
  private final boolean recursive;
  private final Deque<RemoteIterator<FileStatus>> open = new ArrayDeque<>();
  private FileStatus next;

  StatusWalk(FileSystem fs, Path dir, boolean recursive) throws IOException {
    this.fs = fs;
    this.recursive = recursive;
    open.push(fs.listStatusIterator(dir));
  }

  @Override
  public boolean hasNext() throws IOException {
    while (next == null && !open.isEmpty()) {
      RemoteIterator<FileStatus> current = open.peek();
      if (!current.hasNext()) {
        open.pop();
        continue;
      }
      FileStatus status = current.next();
      if (status.isDirectory()) {
        if (recursive) {
          pushDirectory(status.getPath());
        }
      } else {
        next = status;
      }
    }
    return next != null;
  }

  private void pushDirectory(Path dir) throws IOException {
    try {
      open.push(fs.listStatusIterator(dir));
    } catch (FileNotFoundException removedMeanwhile) {
      // A directory deleted between its parent's listing and ours has no files to report.
    }
  }

  @Override
  public FileStatus next() throws IOException {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    FileStatus result = next;
    next = null;
    return result;
  }
}
