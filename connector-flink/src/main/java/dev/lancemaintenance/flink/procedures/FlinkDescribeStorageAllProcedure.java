package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.report.StorageReport;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.describe_storage_all(root => '...', `pattern` => '*.lance', older_than =>
 * '7d', ...)}: {@code sys.describe_storage} of every table of a Lance directory namespace under one
 * policy, the small tables in one Flink job; one row of totals per table, as Spark's {@code
 * lance.describe_storage_all}. PATTERN is reserved in Flink SQL (MATCH_RECOGNIZE): quote it.
 * Deletes nothing.
 */
public final class FlinkDescribeStorageAllProcedure extends FlinkDescribeStorageAllSignature {
  public static final String NAME = "describe_storage_all";

  FlinkDescribeStorageAllProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) throws Exception {
    String root = call.root();
    return ResultRows.fleet(LanceFlinkMaintenance.describeStorageAll(context.getExecutionEnvironment(), root, call.pattern(),
        call.options(CleanupOption.class), storageOptions, clock), StorageReport.totalNames());
  }
}
