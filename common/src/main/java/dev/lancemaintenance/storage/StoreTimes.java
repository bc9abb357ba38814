package dev.lancemaintenance.storage;

import java.io.IOException;
import java.util.List;
import java.util.OptionalLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a run needs to examine a few keys instead of listing the managed directories, from a store
 * whose modification times the store assigns (docs/ledger.md, section 11): a bound on the times of
 * objects a listing taken now cannot miss, and the files under one key prefix. Only s3a on Hadoop
 * 3.4 answers ({@code S3StoreTimes}, through s3a's own client); everywhere else there is none and
 * every run lists.
 */
interface StoreTimes {
  /** {@code S3StoreTimes}'s name: naming the class would load it, and the AWS SDK v2, on every storage. */
  String S3 = "dev.lancemaintenance.storage.S3StoreTimes";

  /**
   * The store's time now (its {@code Date}), lowered to the {@code Initiated} time of the oldest
   * multipart upload open under {@code root}; empty when the store did not answer. Asked before
   * a listing, every object with an earlier store time that still exists is either one that
   * listing shows or one a {@code PUT} still in flight writes (ledger.md 11.3).
   */
  OptionalLong horizonMillis(Path root);

  /** Every file whose key starts with {@code root}'s key, a slash and {@code relativePrefix}. */
  List<FileStatus> filesWithPrefix(Path root, String relativePrefix) throws IOException;

  /** The store times of {@code fs}, or null where there are none to trust (see the class comment). */
  static StoreTimes of(FileSystem fs, String scheme) {
    return scheme.equals("s3a") ? (StoreTimes) S3aClientParts.open(S3, fs, "store times") : null;
  }
}
