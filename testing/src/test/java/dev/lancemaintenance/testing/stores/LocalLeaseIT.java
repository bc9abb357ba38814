package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table lease and the maintenance ledger ({@link LedgerOnStoreContract}) on local disk:
 * create-if-absent is a hard link of a fully written private file, which {@code link(2)} refuses when the name exists.
 */
class LocalLeaseIT extends LeaseOnStoreContract {
  @TempDir static Path work;
  private static Path pristine;

  @BeforeAll
  static void writeTable() {
    pristine = writeLocalTable(work.resolve("pristine"));
  }

  @Override
  public StorageConf storageConf() {
    return StorageConf.defaults();
  }

  @Override
  String freshTable(String name) {
    Path copy = work.resolve("tables").resolve(name);
    TableTwins.copy(pristine, copy);
    return copy.toUri().toString();
  }

  @Override
  public String emptyRoot(String name) {
    return work.resolve("empty").resolve(name).toUri().toString();
  }

  @Override
  public boolean createIfAbsentIsAtomic() {
    return true;
  }
}
