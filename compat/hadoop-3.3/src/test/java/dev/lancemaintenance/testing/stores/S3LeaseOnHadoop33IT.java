package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The table lease on S3 through s3a 3.3.4, which has no conditional PUT (its {@code createFile}
 * refuses {@code fs.option.create.conditional.overwrite} as an unknown mandatory key): the storage
 * asks the client once and falls back to check-then-create, the documented best effort, instead of
 * failing every cleanup at its lease.
 */
class S3LeaseOnHadoop33IT extends LeaseOnStoreContract {
  private static final String BUCKET = "lance-lease-33";
  private static S3ProxyServer s3;

  @BeforeAll
  static void startServer() {
    s3 = S3ProxyServer.start();
    s3.createBucket(BUCKET);
  }

  @AfterAll
  static void stopServer() {
    if (s3 != null) {
      s3.close();
    }
  }

  @Override
  StorageConf storageConf() {
    return s3.storageConf();
  }

  @Override
  String freshTable(String name) {
    S3Tables.writeCompactedHistory(s3, BUCKET, name + ".lance");
    return S3ProxyServer.s3aUri(BUCKET, name + ".lance");
  }

  @Override
  String emptyRoot(String name) {
    return S3ProxyServer.s3aUri(BUCKET, "empty/" + name);
  }

  @Override
  boolean createIfAbsentIsAtomic() {
    return false;
  }

  @Test
  void withoutConditionalPutsASecondCreateSeesTheFirst() {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(emptyRoot("check-then-create")), storageConf())) {
      assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {1})).as("first create").isTrue();
      assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {2})).as("second create").isFalse();
      assertThat(storage.readFully(TableLease.DIR + "/once")).as("the first content stays").containsExactly(1);
    }
  }
}
