package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.cleanup.CleanupOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.cleanup_files(`table` => '...', older_than => '7d', ...)}: a dry run of
 * {@code sys.cleanup} that returns one row per file a real run would remove (path, kind, bytes,
 * reason). Its arguments are the policy's ({@link CleanupOption#policyOptions()}). A separate
 * procedure because a Flink procedure has one output type; Flink's procedure API returns an array,
 * so the rows are gathered in memory here (the CLI and the Java API stream them instead).
 */
public final class FlinkCleanupFilesProcedure extends FlinkCleanupFilesSignature {
  public static final String NAME = "cleanup_files";

  FlinkCleanupFilesProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    List<Row> rows = new ArrayList<>();
    withOptions(cleanupOf(context, call), call)
        .dryRun(true)
        .onRemovedFile(file -> rows.add(ResultRows.file(file)))
        .execute();
    return rows.toArray(Row[]::new);
  }
}
