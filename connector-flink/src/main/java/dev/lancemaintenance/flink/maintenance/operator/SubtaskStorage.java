package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.util.Objects;

/**
 * The table's storage in one subtask, for the functions that read the table: shipped as the table
 * and its factory, opened in the function's {@code open}, closed in its {@code close}.
 */
final class SubtaskStorage implements Serializable {
  private static final long serialVersionUID = 1L;

  private final TableLocation table;
  private final TableStorageFactory factory;
  private transient TableStorage storage;

  SubtaskStorage(TableLocation table, TableStorageFactory factory) {
    this.table = Objects.requireNonNull(table, "table");
    this.factory = Objects.requireNonNull(factory, "factory");
  }

  void open() {
    storage = factory.open(table);
  }

  TableStorage get() {
    return storage;
  }

  void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
