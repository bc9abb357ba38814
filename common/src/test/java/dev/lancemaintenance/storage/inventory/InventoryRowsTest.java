package dev.lancemaintenance.storage.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FileEntry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The CSV rules of an S3 Inventory report, row by row, and the manifest's. */
class InventoryRowsTest {
  private static final InventoryManifest PLAIN = InventoryManifest.parse("m", manifest("CSV",
      "Bucket, Key, Size, LastModifiedDate"));

  @Test
  void keysAreUrlDecodedAndMadeTableRelative() {
    List<FileEntry> entries = rows(PLAIN, "b", "wh/t.lance",
        "\"b\",\"wh/t.lance/data/a+b%2Bc.lance\",\"12\",\"2026-11-30T10:00:00.000Z\"",
        "\"b\",\"wh/t.lance/_versions/3.manifest\",\"7\",\"2026-11-30T10:00:01.000Z\"");

    assertThat(entries).containsExactly(
        new FileEntry("data/a b+c.lance", 12, Instant.parse("2026-11-30T10:00:00Z").toEpochMilli()),
        new FileEntry("_versions/3.manifest", 7, Instant.parse("2026-11-30T10:00:01Z").toEpochMilli()));
  }

  @Test
  void otherTablesOtherBucketsAndFolderMarkersAreLeftOut() {
    List<FileEntry> entries = rows(PLAIN, "b", "wh/t.lance",
        "\"b\",\"wh/t.lance.old/data/x.lance\",\"1\",\"2026-11-30T10:00:00.000Z\"",
        "\"other\",\"wh/t.lance/data/x.lance\",\"1\",\"2026-11-30T10:00:00.000Z\"",
        "\"b\",\"wh/t.lance/data/\",\"0\",\"2026-11-30T10:00:00.000Z\"",
        "\"b\",\"wh/t.lance/data/kept.lance\",\"1\",\"2026-11-30T10:00:00.000Z\"");

    assertThat(entries).extracting(FileEntry::path).containsExactly("data/kept.lance");
  }

  @Test
  void inAVersionedReportOnlyTheLatestLiveVersionCounts() {
    InventoryManifest versioned = InventoryManifest.parse("m", manifest("CSV",
        "Bucket, Key, VersionId, IsLatest, IsDeleteMarker, Size, LastModifiedDate"));

    List<FileEntry> entries = rows(versioned, "b", "t",
        "\"b\",\"t/data/x.lance\",\"v1\",\"false\",\"false\",\"5\",\"2026-11-30T10:00:00.000Z\"",
        "\"b\",\"t/data/x.lance\",\"v2\",\"true\",\"false\",\"6\",\"2026-11-30T11:00:00.000Z\"",
        "\"b\",\"t/data/gone.lance\",\"v3\",\"true\",\"true\",\"\",\"2026-11-30T11:00:00.000Z\"");

    assertThat(entries).containsExactly(new FileEntry("data/x.lance", 6, Instant.parse("2026-11-30T11:00:00Z").toEpochMilli()));
  }

  @Test
  void aRowThatDoesNotFitTheSchemaNamesTheFileAndLine() {
    assertThatThrownBy(() -> rows(PLAIN, "b", "t", "\"b\",\"t/data/a.lance\",\"12\",\"2026-11-30T10:00:00.000Z\"",
            "\"b\",\"t/data/b.lance\",\"twelve\",\"2026-11-30T10:00:00.000Z\""))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("data.csv.gz, line 2")
        .hasMessageContaining("does not parse");
    assertThatThrownBy(() -> rows(PLAIN, "b", "t", "\"b\",\"t/data/a.lance"))
        .isInstanceOf(InventoryException.class).hasMessageContaining("line 1");
  }

  @Test
  void aReportWithoutTheColumnsCleanupNeedsIsRefused() {
    InventoryManifest noTimes = InventoryManifest.parse("m", manifest("CSV", "Bucket, Key, Size"));

    assertThatThrownBy(() -> rows(noTimes, "b", "t"))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("no LastModifiedDate column");
  }

  @Test
  void orcAndBrokenManifestsAreRefusedWithAWayRound() {
    assertThatThrownBy(() -> InventoryManifest.parse("s3a://i/m.json", manifest("ORC", "struct<bucket:string>")))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("s3a://i/m.json describes a ORC report")
        .hasMessageContaining("file_list_view");
    assertThatThrownBy(() -> InventoryManifest.parse("s3a://i/m.json", manifest("Parquet", "Bucket, Key")))
        .isInstanceOf(InventoryException.class)
        .hasMessageContaining("s3a://i/m.json: fileSchema is not a Parquet schema");
    assertThatThrownBy(() -> InventoryManifest.parse("s3a://i/m.json", "{".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InventoryException.class).hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> InventoryManifest.parse("s3a://i/m.json",
            "{\"sourceBucket\":\"b\",\"fileFormat\":\"CSV\",\"fileSchema\":\"Key\",\"creationTimestamp\":\"1\"}".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(InventoryException.class).hasMessageContaining("no \"files\" list");
  }

  @Test
  void aParquetManifestNamesItsColumnsInAParquetSchema() {
    InventoryManifest parquet = InventoryManifest.parse("m", manifest("Parquet", "message s3.inventory {"
        + "  required binary bucket (STRING);  required binary key (STRING);  optional int64 size;"
        + "  optional int64 last_modified_date (TIMESTAMP(MILLIS,true));}"));

    assertThat(parquet.format()).isEqualTo(InventoryManifest.Format.PARQUET);
    assertThat(parquet.columns()).containsExactly("bucket", "key", "size", "last_modified_date");
    assertThat(PLAIN.format()).isEqualTo(InventoryManifest.Format.CSV);
  }

  @Test
  void theManifestSaysWhenTheReportWasTaken() {
    assertThat(PLAIN.creationTime()).isEqualTo(Instant.ofEpochMilli(1764540000000L));
    assertThat(PLAIN.dataFiles()).containsExactly("inv/b/daily/data/1.csv.gz");
    assertThat(PLAIN.columns()).containsExactly("Bucket", "Key", "Size", "LastModifiedDate");
  }

  private static byte[] manifest(String format, String schema) {
    return ("{\"sourceBucket\":\"b\",\"destinationBucket\":\"arn:aws:s3:::inv\",\"version\":\"2016-11-30\","
        + "\"creationTimestamp\":\"1764540000000\",\"fileFormat\":\"" + format + "\",\"fileSchema\":\"" + schema + "\","
        + "\"files\":[{\"key\":\"inv/b/daily/data/1.csv.gz\",\"size\":1,\"MD5checksum\":\"x\"}]}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static List<FileEntry> rows(InventoryManifest manifest, String bucket, String tableKey, String... lines) {
    List<FileEntry> entries = new ArrayList<>();
    try (InventoryRows rows = new CsvRows(manifest, "data.csv.gz", new ByteArrayInputStream(gzip(lines)), new TableRows(bucket, tableKey))) {
      rows.forEachRemaining(entries::add);
    }
    return entries;
  }

  private static byte[] gzip(String... lines) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (GZIPOutputStream out = new GZIPOutputStream(bytes)) {
      out.write(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
