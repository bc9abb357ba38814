package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table lease and the maintenance ledger ({@link LedgerOnStoreContract}) on HDFS
 * (MiniDFSCluster): create-if-absent is {@code create(overwrite=false)}, which the NameNode decides
 * atomically.
 */
class HdfsLeaseIT extends LeaseOnStoreContract {
  @TempDir static Path work;
  private static MiniHdfs hdfs;
  private static Path pristine;

  @BeforeAll
  static void startHdfsAndWriteTable() {
    hdfs = MiniHdfs.start(work.resolve("hdfs"));
    pristine = writeLocalTable(work.resolve("pristine"));
  }

  @AfterAll
  static void stopHdfs() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Override
  public StorageConf storageConf() {
    return hdfs.storageConf();
  }

  @Override
  String freshTable(String name) {
    String uri = hdfs.uri("/tables/" + name + "-" + Instant.now().toEpochMilli());
    TableCopies.upload(pristine, uri, hdfs.configuration());
    return uri;
  }

  @Override
  public boolean createIfAbsentIsAtomic() {
    return true;
  }

  @Override
  public String emptyRoot(String name) {
    return hdfs.uri("/empty/" + name);
  }
}
