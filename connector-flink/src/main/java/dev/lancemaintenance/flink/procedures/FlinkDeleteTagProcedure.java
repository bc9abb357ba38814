package dev.lancemaintenance.flink.procedures;

import dev.lancemaintenance.flink.maintenance.api.LanceFlinkMaintenance;
import dev.lancemaintenance.format.Tag;
import org.apache.flink.table.procedure.ProcedureContext;
import org.apache.flink.types.Row;

/**
 * {@code CALL <catalog>.sys.delete_tag(`table` => '...', tag => 'release')}: deletes a tag, so
 * cleanup may remove the version it kept. One row: the tag, its branch and the version it named.
 */
public final class FlinkDeleteTagProcedure extends FlinkDeleteTagSignature {
  public static final String NAME = "delete_tag";

  FlinkDeleteTagProcedure(CatalogSettings settings) {
    super(settings);
  }

  @Override
  Row[] run(ProcedureContext context, ProcedureCall call) {
    String table = call.table();
    String name = call.required("tag", String.class);
    Tag deleted = LanceFlinkMaintenance.tags(table, storageOptions, clock, tags -> tags.delete(name));
    return new Row[] {ResultRows.tag(deleted)};
  }
}
