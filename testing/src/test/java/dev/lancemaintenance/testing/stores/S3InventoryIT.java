package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.inventory.InventoryException;
import dev.lancemaintenance.storage.inventory.S3Inventory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.util.Iterator;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An S3 Inventory report, generated in AWS's CSV and Parquet formats from the test server's own listing, read
 * through s3a as the listing of one table: exactly the files our listing of the table shows, with
 * the same sizes and times, and nothing of the table next door.
 */
class S3InventoryIT {
  private static final String SOURCE = "warehouse";
  private static final String REPORTS = "inventory";
  private static S3ProxyServer s3;
  private static LanceTableFixture table;
  private static TableStorageFactory storage;

  @BeforeAll
  static void writeTables() {
    s3 = S3ProxyServer.start();
    s3.createBucket(SOURCE);
    s3.createBucket(REPORTS);
    table = S3Tables.writeCompactedHistory(s3, SOURCE, "db/t.lance");
    S3Tables.writeCompactedHistory(s3, SOURCE, "db/t.lance.other");
    storage = HadoopTableStorage.factory(s3.storageConf());
  }

  @AfterAll
  static void stopServer() {
    if (s3 != null) {
      s3.close();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"CSV", "Parquet"})
  void theReportListsTheTableAsTheStoreDoes(String format) {
    S3InventoryReport report = format.equals("Parquet") ? new S3InventoryReport().inParquet() : new S3InventoryReport();
    String manifest = report
        .rowsPerFile(7)
        .withRow(SOURCE, "db/t.lance/data/old-version.lance", "v1", "false", "false", "10", "2026-01-01T00:00:00.000Z", "e", "STANDARD")
        .withRow(SOURCE, "db/t.lance/data/deleted.lance", "v2", "true", "true", "", "2026-01-01T00:00:00.000Z", "", "")
        .write(s3, SOURCE, REPORTS, "reports");
    TableLocation location = TableLocation.of(S3ProxyServer.s3aUri(SOURCE, "db/t.lance"));

    S3Inventory inventory = S3Inventory.open(manifest, storage);
    SortedMap<String, FileEntry> fromReport = new TreeMap<>();
    try (TableStorage reports = inventory.openReports(storage)) {
      inventory.allRows(reports, location).forEachRemaining(e -> fromReport.put(e.path(), e));
    }

    SortedMap<String, FileEntry> listed = new TreeMap<>();
    try (TableStorage tableStorage = storage.open(location)) {
      for (Iterator<FileEntry> it = tableStorage.listFiles("", true); it.hasNext(); ) {
        FileEntry entry = it.next();
        listed.put(entry.path(), entry);
      }
    }
    assertThat(inventory.dataFiles()).as("data files of the report").hasSizeGreaterThan(2);
    assertThat(listed).as("the table's files").hasSizeGreaterThan(10);
    assertThat(fromReport).as("an old object version and a delete marker")
        .doesNotContainKeys("data/old-version.lance", "data/deleted.lance");
    assertThat(fromReport.keySet()).as("paths").isEqualTo(listed.keySet());
    fromReport.forEach((path, entry) -> {
      assertThat(entry.size()).as("size of " + path).isEqualTo(listed.get(path).size());
      assertThat(entry.modificationTimeMillis() / 1000).as("time of " + path)
          .isEqualTo(listed.get(path).modificationTimeMillis() / 1000);
    });
  }

  @Test
  void aReportOfAnotherBucketIsRefused() {
    String manifest = new S3InventoryReport().write(s3, REPORTS, REPORTS, "self");
    TableLocation location = TableLocation.of(S3ProxyServer.s3aUri(SOURCE, "db/t.lance"));
    S3Inventory inventory = S3Inventory.open(manifest, storage);

    try (TableStorage reports = inventory.openReports(storage)) {
      assertThatThrownBy(() -> inventory.allRows(reports, location))
          .isInstanceOf(InventoryException.class)
          .hasMessageContaining("lists bucket " + REPORTS + ", not the bucket of table");
    }
  }
}
