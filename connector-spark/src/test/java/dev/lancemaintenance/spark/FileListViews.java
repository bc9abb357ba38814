package dev.lancemaintenance.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Views of file paths ({@code path, size, last_modified}) for {@code file_list_view}, made from the
 * store's own listing, as an inventory read by Spark would give them.
 */
public final class FileListViews {
  private FileListViews() {}

  /**
   * Registers {@code view}: the files under {@code rootUri} whose path relative to it {@code keep}
   * accepts, as the store lists them.
   */
  public static void register(SparkSession spark, String view, String rootUri, Configuration conf, Predicate<String> keep) {
    Path root = new Path(rootUri);
    List<Row> rows = new ArrayList<>();
    try (FileSystem fs = FileSystem.newInstance(root.toUri(), conf)) {
      String prefix = fs.makeQualified(root).toString() + "/";
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
      while (files.hasNext()) {
        LocatedFileStatus file = files.next();
        String path = file.getPath().toString();
        if (keep.test(path.startsWith(prefix) ? path.substring(prefix.length()) : path)) {
          rows.add(RowFactory.create(path, file.getLen(), new Timestamp(file.getModificationTime())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    StructType schema = new StructType()
        .add("path", DataTypes.StringType)
        .add("size", DataTypes.LongType)
        .add("last_modified", DataTypes.TimestampType);
    spark.createDataFrame(rows, schema).createOrReplaceTempView(view);
  }
}
