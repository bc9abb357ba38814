package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * {@code CALL lance.compact(table, target_rows_per_fragment, max_rows_per_group,
 * max_bytes_per_file, materialize_deletions, materialize_deletions_threshold, num_threads,
 * batch_size, max_concurrent_tasks, partial_progress, options)}: merges small fragments with
 * Lance's planner, tasks on the executors ({@link dev.lancemaintenance.spark.SparkCompactAction}),
 * and returns one row of {@code CompactResult.namedCounters()}.
 */
final class SparkCompactProcedure implements UnboundProcedure, BoundProcedure {
  static final String NAME = "compact";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Merges a Lance table's small fragments with Lance's own compaction, the tasks distributed over the"
        + " executors; commits on the driver. Deletes nothing (optimize also cleans up).";
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    return this;
  }

  @Override
  public ProcedureParameter[] parameters() {
    return CompactionParameters.ALL.toArray(new ProcedureParameter[0]);
  }

  @Override
  public boolean isDeterministic() {
    return false;
  }

  @Override
  public Iterator<Scan> call(InternalRow input) {
    ProcedureArgs args = new ProcedureArgs(CompactionParameters.ALL, input);
    String table = args.requiredString(CompactionParameters.TABLE);
    CompactAction action =
        LanceMaintenance.of(SparkSession.active()).compact(table, CompactionParameters.storageOptions(args));
    InternalRow row = ResultRows.internalRow(CompactionParameters.applyTo(args, action).execute().namedCounters());
    return List.<Scan>of(new RowsScan(ResultRows.COMPACT_SCHEMA, new InternalRow[] {row})).iterator();
  }
}
