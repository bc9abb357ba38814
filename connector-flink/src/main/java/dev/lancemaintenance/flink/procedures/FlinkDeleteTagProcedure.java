package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.format.Tag;
import java.time.Clock;
import java.util.Map;
import org.apache.flink.table.annotation.ArgumentHint;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.annotation.ProcedureHint;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.delete_tag(`table` => '...', tag => 'release')}: deletes a tag, so
 * cleanup may remove the version it kept. One row: the tag, its branch and the version it named.
 */
public final class FlinkDeleteTagProcedure extends StoreProcedure {
  public static final String NAME = "delete_tag";

  FlinkDeleteTagProcedure(Map<String, String> storageOptions, Clock clock) {
    super(storageOptions, clock);
  }

  @ProcedureHint(
      argument = {
        @ArgumentHint(name = "table", type = @DataTypeHint("STRING")),
        @ArgumentHint(name = "tag", type = @DataTypeHint("STRING"), isOptional = true)
      })
  public @DataTypeHint(ResultRows.TAG_ROW) Row[] call(ProcedureContext context, String table, String tag) {
    ProcedureArgs.requireTable(table);
    String name = ProcedureArgs.required("tag", tag);
    Tag deleted = LanceFlinkMaintenance.tags(table, storageOptions, clock, tags -> tags.delete(name));
    return new Row[] {ResultRows.tag(deleted)};
  }
}
