package dev.lancemaintenance.flink.procedures;

import java.time.Clock;
import java.util.Map;
import org.apache.flink.table.procedures.Procedure;

/**
 * A procedure of the Lance catalog: the settings the catalog was created with ({@link
 * CatalogSettings}). Each procedure extends its generated signature ({@code <Name>Signature},
 * written from the option catalogues by connector-flink-codegen), which extends this: Flink reads a
 * procedure's arguments from the hints of its {@code call} method alone.
 */
abstract class StoreProcedure implements Procedure {
  /** The Hadoop configuration of the tables' store (may hold credentials; never printed). */
  protected final Map<String, String> storageOptions;
  /** The Lance SDK's storage options, for compaction. */
  protected final Map<String, String> sdkStorageOptions;
  protected final Clock clock;

  StoreProcedure(CatalogSettings settings) {
    this.storageOptions = settings.hadoopOptions();
    this.sdkStorageOptions = settings.sdkOptions();
    this.clock = settings.clock();
  }
}
