package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.LocalTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.storage.TableStorages;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table lease and the maintenance ledger ({@link LedgerOnStoreContract}) on local disk, through
 * {@link LocalTableStorage} as every local run opens it: create-if-absent is a hard link of a fully
 * written private file, which {@code link(2)} refuses when the name exists.
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

  /** What every local run uses: java.nio, no Hadoop. */
  @Override
  public TableStorageFactory stores() {
    return TableStorages.factory(storageConf());
  }

  @Test
  void localTablesAreServedByJavaNio() {
    try (TableStorage storage = stores().open(TableLocation.of(emptyRoot("nio")))) {
      assertThat(storage).isInstanceOf(LocalTableStorage.class);
    }
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
