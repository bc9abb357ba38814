package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The maintenance ledger on local disk (create-if-absent is a hard link of a fully written file). */
class LocalLedgerIT extends LedgerOnStoreContract {
  @TempDir static Path work;

  @Override
  StorageConf storageConf() {
    return StorageConf.defaults();
  }

  @Override
  String emptyRoot(String name) {
    return work.resolve(name).toUri().toString();
  }
}
