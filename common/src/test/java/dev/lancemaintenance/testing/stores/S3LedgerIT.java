package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The maintenance ledger on S3 (s3proxy through s3a). s3proxy ignores {@code If-None-Match} on PUT
 * (see {@link S3LeaseIT}): there the second of two writers of one generation replaces the
 * first's commit whole, and the ledger stays one writer's consistent view.
 */
class S3LedgerIT extends LedgerOnStoreContract {
  private static final String BUCKET = "lance-ledger";
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
  boolean createIfAbsentIsAtomic() {
    return false;
  }

  @Override
  String emptyRoot(String name) {
    return S3ProxyServer.s3aUri(BUCKET, name);
  }
}
