package dev.lancemaintenance.storage;

import java.lang.reflect.InvocationTargetException;
import org.apache.hadoop.fs.FileSystem;

/**
 * Opens the parts of this project that reach s3a's own client ({@code S3KeyRangeListing},
 * {@code S3StoreTimes}): they are named, not referenced, because loading them loads the AWS SDK v2,
 * which only hadoop-aws 3.4 brings. On Hadoop 3.3 (Spark 3.5's 3.3.4, AWS SDK v1) or without
 * hadoop-aws there is no part to open, and the caller takes Hadoop's own calls instead.
 */
final class S3aClientParts {
  private S3aClientParts() {}

  /**
   * The part {@code className}'s static {@code open(FileSystem)} returns for {@code fs}; null when
   * it returns null or the client it needs is not on the class path.
   *
   * @param what what the part is, for the error when opening it fails for another reason
   */
  static Object open(String className, FileSystem fs, String what) {
    try {
      return Class.forName(className).getMethod("open", FileSystem.class).invoke(null, fs);
    } catch (InvocationTargetException e) {
      if (!(e.getCause() instanceof LinkageError)) {
        throw new IllegalStateException("cannot open the " + what + " of " + fs.getUri(), e.getCause());
      }
      return null; // Hadoop before 3.4: no S3AInternals, no AWS SDK v2.
    } catch (ReflectiveOperationException | LinkageError e) {
      return null; // hadoop-aws 3.4 absent from the class path.
    }
  }
}
