package dev.lancemaintenance.flink.procedures;

import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.catalog.GenericInMemoryCatalog;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.ProcedureNotExistException;
import org.apache.flink.table.procedures.Procedure;

/**
 * A catalog that offers Lance maintenance as procedures in its {@code sys} database: {@code CALL
 * lance.sys.cleanup(...)}, {@code CALL lance.sys.cleanup_all(...)}, {@code CALL lance.sys.cleanup_files(...)}, {@code CALL
 * lance.sys.compact(...)}, {@code CALL lance.sys.optimize(...)} and the tag procedures {@code
 * create_tag}, {@code move_tag}, {@code delete_tag}. Tables are named by URI in the
 * {@code table} argument; the catalog's {@code storage.*} options are the Hadoop configuration for
 * their store, its {@code sdk.*} options the Lance SDK's storage options for compaction. Everything
 * else is Flink's in-memory catalog.
 */
public final class LanceFlinkCatalog extends GenericInMemoryCatalog {
  public static final String PROCEDURE_DATABASE = "sys";

  private final CatalogSettings settings;

  public LanceFlinkCatalog(String name, Map<String, String> storageOptions) {
    this(name, storageOptions, Map.of(), Clock.systemUTC());
  }

  /**
   * @param storageOptions Hadoop configuration of the tables' store (cleanup)
   * @param sdkStorageOptions the Lance SDK's storage options (compaction)
   */
  public LanceFlinkCatalog(String name, Map<String, String> storageOptions, Map<String, String> sdkStorageOptions) {
    this(name, storageOptions, sdkStorageOptions, Clock.systemUTC());
  }

  LanceFlinkCatalog(String name, Map<String, String> storageOptions, Map<String, String> sdkStorageOptions, Clock clock) {
    super(name);
    this.settings = new CatalogSettings(storageOptions, sdkStorageOptions, clock);
  }

  @Override
  public List<String> listProcedures(String database) {
    return PROCEDURE_DATABASE.equals(database)
        ? List.of(
            FlinkCleanupProcedure.NAME, FlinkCleanupAllProcedure.NAME, FlinkCleanupFilesProcedure.NAME, FlinkCompactProcedure.NAME,
            FlinkOptimizeProcedure.NAME, FlinkTagProcedure.CREATE_NAME,
            FlinkTagProcedure.MOVE_NAME, FlinkDeleteTagProcedure.NAME, FlinkRemoveOrphanFilesProcedure.NAME,
            FlinkDescribeStorageProcedure.NAME, FlinkDescribeStorageAllProcedure.NAME,
            FlinkMaintenanceHistoryProcedure.NAME, FlinkExpireVersionsProcedure.NAME, FlinkOptimizeAllProcedure.NAME)
        : List.of();
  }

  @Override
  public Procedure getProcedure(ObjectPath path) throws ProcedureNotExistException {
    if (PROCEDURE_DATABASE.equals(path.getDatabaseName())) {
      switch (path.getObjectName().toLowerCase(Locale.ROOT)) {
        case FlinkCleanupProcedure.NAME:
          return new FlinkCleanupProcedure(settings);
        case FlinkCleanupAllProcedure.NAME:
          return new FlinkCleanupAllProcedure(settings);
        case FlinkCleanupFilesProcedure.NAME:
          return new FlinkCleanupFilesProcedure(settings);
        case FlinkCompactProcedure.NAME:
          return new FlinkCompactProcedure(settings);
        case FlinkOptimizeProcedure.NAME:
          return new FlinkOptimizeProcedure(settings);
        case FlinkTagProcedure.CREATE_NAME:
          return new FlinkTagProcedure(FlinkTagProcedure.Action.CREATE, settings);
        case FlinkTagProcedure.MOVE_NAME:
          return new FlinkTagProcedure(FlinkTagProcedure.Action.MOVE, settings);
        case FlinkDeleteTagProcedure.NAME:
          return new FlinkDeleteTagProcedure(settings);
        case FlinkRemoveOrphanFilesProcedure.NAME:
          return new FlinkRemoveOrphanFilesProcedure(settings);
        case FlinkDescribeStorageProcedure.NAME:
          return new FlinkDescribeStorageProcedure(settings);
        case FlinkDescribeStorageAllProcedure.NAME:
          return new FlinkDescribeStorageAllProcedure(settings);
        case FlinkMaintenanceHistoryProcedure.NAME:
          return new FlinkMaintenanceHistoryProcedure(settings);
        case FlinkExpireVersionsProcedure.NAME:
          return new FlinkExpireVersionsProcedure(settings);
        case FlinkOptimizeAllProcedure.NAME:
          return new FlinkOptimizeAllProcedure(settings);
        default:
          break;
      }
    }
    throw new ProcedureNotExistException(getName(), path);
  }
}
