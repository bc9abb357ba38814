package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.spark.LanceMaintenance;
import dev.lancemaintenance.spark.ResultRows;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;

/**
 * {@code CALL lance.compact(table, <the compaction options, CompactionOption>, options)}: merges small fragments with
 * Lance's planner, tasks on the executors ({@link dev.lancemaintenance.spark.SparkCompactionEngine}),
 * and returns one row of {@code CompactResult.namedCounters()}.
 */
final class SparkCompactProcedure extends BaseLanceProcedure {
  static final String NAME = "compact";

  SparkCompactProcedure(Clock clock) {
    super(NAME,
        "Merges a Lance table's small fragments with Lance's own compaction, the tasks distributed over the"
            + " executors; commits on the driver. Deletes nothing (optimize also cleans up).",
        CompactionOption.CATALOGUE, ResultRows.COMPACT_SCHEMA, clock);
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return CompactionParameters.ALL;
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    String table = args.requiredString(CompactionParameters.TABLE);
    CompactAction action =
        LanceMaintenance.of(SparkSession.active()).compact(table, CompactionParameters.storageOptions(args));
    return Result.of(
        ResultRows.COMPACT_SCHEMA,
        ResultRows.internalRow(CompactionParameters.applyTo(call, action).execute().namedCounters()));
  }
}
