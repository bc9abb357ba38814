package dev.lancemaintenance.storage;

import java.io.Closeable;
import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * How a {@link HadoopTableStorage} walks a directory: as {@code FileSystem.listFiles(dir, true)}
 * gives it (the same files, the same size, time and path of each, a missing directory a {@code
 * FileNotFoundException}, a path that is a file that file), by Hadoop's own listing or, on s3a
 * with a Hadoop 3.4 client, by {@code S3KeyRangeListing}, which lists a directory of more than one
 * page in key ranges side by side.
 */
interface RecursiveListing extends Closeable {
  /** {@code S3KeyRangeListing}'s name: naming the class would load it, and the AWS SDK v2, on every storage. */
  String S3_KEY_RANGES = "dev.lancemaintenance.storage.S3KeyRangeListing";

  /** Every file at or below {@code dir}, as {@code FileSystem.listFiles(dir, true)} lists them. */
  RemoteIterator<? extends FileStatus> listFiles(Path dir) throws IOException;

  @Override
  void close();

  /**
   * A listed file that names itself by its key in the store, which its path's {@code
   * toUri().getPath()} is exactly with a slash before it: the table's storage names it without
   * making its {@code Path} ({@code S3KeyRangeListing.ListedKey}).
   */
  interface KeyNamed {
    String key();
  }

  /**
   * The listing for {@code fs}: key ranges on s3a where the client offers them ({@code
   * S3KeyRangeListing#open} says when), Hadoop's own listing everywhere else: HDFS, local disk,
   * gs, abfs, and s3a on Hadoop 3.3 (Spark 3.5's 3.3.4, AWS SDK v1), whose client this project
   * does not reach.
   */
  static RecursiveListing of(FileSystem fs, String scheme) {
    Object ranged = scheme.equals("s3a") ? S3aClientParts.open(S3_KEY_RANGES, fs, "key-range listing") : null;
    return ranged != null ? (RecursiveListing) ranged : new Plain(fs);
  }

  /** Hadoop's own recursive listing. */
  record Plain(FileSystem fs) implements RecursiveListing {
    @Override
    public RemoteIterator<? extends FileStatus> listFiles(Path dir) throws IOException {
      return fs.listFiles(dir, true);
    }

    @Override
    public void close() {}
  }
}
