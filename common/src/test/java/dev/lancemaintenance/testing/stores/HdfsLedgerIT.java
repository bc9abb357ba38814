package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance ledger on HDFS (MiniDFSCluster), where the NameNode decides create-if-absent. */
class HdfsLedgerIT extends LedgerOnStoreContract {
  @TempDir static Path work;
  private static MiniHdfs hdfs;

  @BeforeAll
  static void startHdfs() {
    hdfs = MiniHdfs.start(work.resolve("hdfs"));
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
  String emptyRoot(String name) {
    return hdfs.uri("/ledger/" + name);
  }
}
