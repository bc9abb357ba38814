package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.spark.LanceMaintenance;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * {@code CALL lance.maintenance_history(table, limit, options)}: the table's maintenance runs from
 * their records, newest first, one row per run with {@link RunEntry#COLUMNS}; a run that died is
 * {@code unfinished}. Reads only {@code _maintenance/runs/}; deletes nothing.
 */
final class SparkMaintenanceHistoryProcedure extends BaseLanceProcedure {
  static final String NAME = "maintenance_history";
  static final int DEFAULT_LIMIT = 100;
  static final Parameter LIMIT = Parameter.optional(
      "limit", DataTypes.LongType, "at most this many runs, the newest; default " + DEFAULT_LIMIT);
  static final StructType SCHEMA = schema();

  SparkMaintenanceHistoryProcedure(Clock clock) {
    super(NAME,
        "The maintenance runs of a Lance table, newest first: finished, failed, or unfinished (the run died).", SCHEMA, clock);
  }

  private static StructType schema() {
    StructType schema = new StructType();
    for (RunEntry.Column column : RunEntry.COLUMNS) {
      DataType type = switch (column.type()) {
        case STRING -> DataTypes.StringType;
        case LONG -> DataTypes.LongType;
        case TIMESTAMP -> DataTypes.TimestampType;
      };
      schema = schema.add(column.name(), type, true);
    }
    return schema;
  }

  @Override
  public List<Parameter> parameters(Map<String, DataType> givenTypes) {
    return List.of(SparkCleanupProcedure.TABLE, LIMIT, SparkCleanupProcedure.OPTIONS);
  }

  @Override
  public Result call(BoundCall call) {
    ProcedureArgs args = call.args();
    long limit = args.longValue(LIMIT).orElse(DEFAULT_LIMIT);
    if (limit < 1 || limit > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("Parameter 'limit' must be at least 1, not " + limit);
    }
    List<RunEntry> runs = LanceMaintenance.of(SparkSession.active(), clock)
        .history(args.requiredString(SparkCleanupProcedure.TABLE), args.stringMap(SparkCleanupProcedure.OPTIONS), (int) limit);
    return new Result(SCHEMA, runs.stream().map(SparkMaintenanceHistoryProcedure::row).toArray(InternalRow[]::new));
  }

  private static InternalRow row(RunEntry run) {
    return new GenericInternalRow(run.values().stream().map(SparkMaintenanceHistoryProcedure::internal).toArray());
  }

  /** A value in Spark's internal form: strings as UTF8String, instants as microseconds. */
  private static Object internal(Object value) {
    if (value instanceof String text) {
      return UTF8String.fromString(text);
    }
    if (value instanceof Instant instant) {
      return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
    }
    return value;
  }
}
