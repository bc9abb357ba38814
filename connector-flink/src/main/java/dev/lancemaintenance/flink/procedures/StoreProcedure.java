package dev.lancemaintenance.flink.procedures;

import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.table.procedures.Procedure;

/**
 * A procedure of the Lance catalog that reaches a table's store: the Hadoop settings the catalog was
 * created with (they may hold credentials; never printed) and the clock its cutoffs are taken
 * from. Flink reads each procedure's arguments from its own {@code call} method's hints.
 */
abstract class StoreProcedure implements Procedure {
  protected final Map<String, String> storageOptions;
  protected final Clock clock;

  StoreProcedure(Map<String, String> storageOptions, Clock clock) {
    this.storageOptions = Map.copyOf(storageOptions);
    this.clock = Objects.requireNonNull(clock, "clock");
  }
}
