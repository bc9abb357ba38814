package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table lease on HDFS (MiniDFSCluster): create-if-absent is {@code create(overwrite=false)},
 * which the NameNode decides atomically.
 */
class HdfsLeaseIT extends LeaseOnStoreContract {
  @TempDir static Path work;
  private static MiniHdfs hdfs;
  private static Path pristine;

  @BeforeAll
  static void startHdfsAndWriteTable() throws InterruptedException {
    hdfs = MiniHdfs.start(work.resolve("hdfs"));
    LanceTableFixture table = LanceTableFixture.create(work.resolve("pristine"));
    table.append(20);
    table.append(20);
    table.deleteWhere("id % 3 = 0");
    table.compact();
    Thread.sleep(5);
    table.append(5);
    pristine = table.root();
  }

  @AfterAll
  static void stopHdfs() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Override
  StorageConf storageConf() {
    return hdfs.storageConf();
  }

  @Override
  String freshTable(String name) {
    String uri = hdfs.uri("/tables/" + name + "-" + Instant.now().toEpochMilli());
    TableCopies.upload(pristine, uri, hdfs.configuration());
    return uri;
  }

  @Override
  boolean createIfAbsentIsAtomic() {
    return true;
  }

  @Override
  String emptyRoot(String name) {
    return hdfs.uri("/empty/" + name);
  }
}
