package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageReport;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.describe_storage(`table` => '...', windows => '0s,1d,7d', older_than =>
 * '7d', ...)}: the storage report as rows, the same rows as Spark's {@code lance.describe_storage}
 * (section, name, versions, files, bytes, detail), computed by the report's stages as Flink jobs.
 * The policy arguments are {@code sys.cleanup_files}' (the cleanup's without its run settings), so
 * the report is about exactly the cleanup they describe. Deletes nothing.
 */
public final class FlinkDescribeStorageProcedure extends FlinkDescribeStorageSignature {
  public static final String NAME = "describe_storage";

  FlinkDescribeStorageProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    StorageReport report = LanceFlinkMaintenance.describeStorage(context.getExecutionEnvironment(), table,
        call.options(CleanupOption.class),
        call.argument("windows", String.class).map(ReportWindows::parse).orElse(ReportWindows.DEFAULT_WINDOWS),
        storageOptions, clock);
    return report.rows().stream().map(ResultRows::storage).toArray(Row[]::new);
  }
}
