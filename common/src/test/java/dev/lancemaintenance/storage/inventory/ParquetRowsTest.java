package dev.lancemaintenance.storage.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Parquet rules of an S3 Inventory report, on files written by Parquet's own writer in AWS's
 * column names, several row groups each: keys as they are, versions and delete markers, the
 * timestamp's unit, and the errors that name the data file.
 */
class ParquetRowsTest {
  private static final MessageType VERSIONED = MessageTypeParser.parseMessageType("message s3.inventory {"
      + " required binary bucket (STRING); required binary key (STRING); optional binary version_id (STRING);"
      + " optional boolean is_latest; optional boolean is_delete_marker; optional int64 size;"
      + " optional int64 last_modified_date (TIMESTAMP(MILLIS,true)); optional binary e_tag (STRING); }");
  private static final long T = Instant.parse("2026-11-30T10:00:00.123Z").toEpochMilli();

  @TempDir Path reports;

  @Test
  void keysStayAsTheyAreAndOnlyTheLatestLiveVersionOfTheTablesFilesCounts() throws IOException {
    write("data/1.parquet", VERSIONED, List.of(
        row(VERSIONED, "b", "wh/t.lance/data/a+b%2Bc.lance", true, false, 12L, T),
        row(VERSIONED, "b", "wh/t.lance/data/x.lance", false, false, 5L, T),
        row(VERSIONED, "b", "wh/t.lance/data/x.lance", true, false, 6L, T + 1),
        row(VERSIONED, "b", "wh/t.lance/data/gone.lance", true, true, null, T),
        row(VERSIONED, "b", "wh/t.lance.old/data/y.lance", true, false, 1L, T),
        row(VERSIONED, "other", "wh/t.lance/data/z.lance", true, false, 1L, T),
        row(VERSIONED, "b", "wh/t.lance/data/", true, false, 0L, T),
        row(VERSIONED, "b", "wh/t.lance/_versions/3.manifest", true, false, 7L, T + 2)));

    assertThat(read("data/1.parquet", "wh/t.lance")).containsExactly(
        new FileEntry("data/a+b%2Bc.lance", 12, T),
        new FileEntry("data/x.lance", 6, T + 1),
        new FileEntry("_versions/3.manifest", 7, T + 2));
  }

  @Test
  void aReportWithoutVersionsInMicrosecondsReadsToTheMillisecond() throws IOException {
    MessageType micros = MessageTypeParser.parseMessageType("message s3.inventory {"
        + " required binary bucket (STRING); required binary key (STRING); optional int64 size;"
        + " optional int64 last_modified_date (TIMESTAMP(MICROS,true)); }");
    Group group = new SimpleGroupFactory(micros).newGroup()
        .append("bucket", "b").append("key", "t/data/a.lance").append("size", 3L).append("last_modified_date", T * 1000 + 999);
    write("data/micros.parquet", micros, List.of(group));

    assertThat(read("data/micros.parquet", "t")).containsExactly(new FileEntry("data/a.lance", 3, T));
  }

  @Test
  void aFileThatIsNotAReportNamesTheDataFile() throws IOException {
    MessageType noTimes = MessageTypeParser.parseMessageType("message s3.inventory {"
        + " required binary bucket (STRING); required binary key (STRING); optional int64 size; }");
    write("data/no-times.parquet", noTimes, List.of(
        new SimpleGroupFactory(noTimes).newGroup().append("bucket", "b").append("key", "t/data/a.lance").append("size", 3L)));
    Files.createDirectories(reports.resolve("data"));
    Files.write(reports.resolve("data/garbage.parquet"), "not parquet at all".getBytes(StandardCharsets.UTF_8));
    write("data/no-size.parquet", VERSIONED, List.of(row(VERSIONED, "b", "t/data/a.lance", true, false, null, T)));

    assertThatThrownBy(() -> read("data/no-times.parquet", "t"))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("data/no-times.parquet: the report has no last_modified_date column");
    assertThatThrownBy(() -> read("data/garbage.parquet", "t"))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("data/garbage.parquet is not a Parquet file");
    assertThatThrownBy(() -> read("data/no-size.parquet", "t"))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("data/no-size.parquet, row 1 (data/a.lance) has no size");
  }

  private static Group row(MessageType schema, String bucket, String key, boolean latest, boolean deleteMarker, Long size, long millis) {
    Group group = new SimpleGroupFactory(schema).newGroup()
        .append("bucket", bucket).append("key", key).append("version_id", "v")
        .append("is_latest", latest).append("is_delete_marker", deleteMarker)
        .append("last_modified_date", millis).append("e_tag", "e");
    if (size != null) {
      group.append("size", size);
    }
    return group;
  }

  /** Writes {@code rows} with Parquet's writer, Snappy-compressed, two rows per row group. */
  private void write(String path, MessageType schema, List<Group> rows) throws IOException {
    Files.createDirectories(reports.resolve(path).getParent());
    try (ParquetWriter<Group> writer = ExampleParquetWriter.builder(new LocalOutputFile(reports.resolve(path)))
        .withType(schema)
        .withCompressionCodec(CompressionCodecName.SNAPPY)
        .withRowGroupRowCountLimit(2)
        .build()) {
      for (Group row : rows) {
        writer.write(row);
      }
    }
  }

  private List<FileEntry> read(String dataFile, String tableKey) {
    InventoryManifest header = new InventoryManifest(
        "b", Instant.ofEpochMilli(T), InventoryManifest.Format.PARQUET, List.of(), List.of());
    List<FileEntry> entries = new ArrayList<>();
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(reports.toUri().toString()));
        InventoryRows rows = InventoryRows.open(header, dataFile, storage, tableKey)) {
      rows.forEachRemaining(entries::add);
    }
    return entries;
  }
}
