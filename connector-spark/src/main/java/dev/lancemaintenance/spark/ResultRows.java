package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionCounters;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.report.StorageReport;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * The one mapping from results to rows, for the SQL procedure and the notebook API alike: a
 * cleanup's counters are one row whose columns are {@link CleanupResult#row()} (the snake_case
 * counters, then {@code mark_mode} and {@code manifests_read}, in that order); a dry run's files are rows of {@code path} (table-relative), {@code kind},
 * {@code bytes}, {@code reason}. Compaction and optimize are one row each, of {@link
 * CompactResult#namedCounters()} and {@link OptimizeResult#namedCounters()}.
 */
public final class ResultRows {
  /** The columns of the counters row, named and ordered by {@link CleanupResult#row()}. */
  public static final StructType COUNTER_SCHEMA = counterSchema();

  /** The columns of {@code lance.compact}'s row. */
  public static final StructType COMPACT_SCHEMA =
      schemaOf(new CompactResult("", 0, 0, 0, 0, CompactionCounters.ZERO, 0).namedCounters());

  /** The columns of {@code lance.optimize}'s row. */
  public static final StructType OPTIMIZE_SCHEMA = schemaOf(OptimizeResult.counterNames());

  /** The columns of a dry run's file rows. */
  public static final StructType FILE_SCHEMA =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("path", DataTypes.StringType, false),
            DataTypes.createStructField("kind", DataTypes.StringType, false),
            DataTypes.createStructField("bytes", DataTypes.LongType, false),
            DataTypes.createStructField("reason", DataTypes.StringType, false)
          });

  /** The columns of the storage report's rows, one per component of {@link StorageReport.Row}. */
  public static final StructType STORAGE_SCHEMA =
      new StructType(
          new StructField[] {
            DataTypes.createStructField("section", DataTypes.StringType, false),
            DataTypes.createStructField("name", DataTypes.StringType, false),
            DataTypes.createStructField("versions", DataTypes.LongType, false),
            DataTypes.createStructField("files", DataTypes.LongType, false),
            DataTypes.createStructField("bytes", DataTypes.LongType, false),
            DataTypes.createStructField("detail", DataTypes.StringType, false)
          });

  public static Row storageRow(StorageReport.Row row) {
    return RowFactory.create(row.section(), row.name(), row.versions(), row.files(), row.bytes(), row.detail());
  }

  public static InternalRow storageInternalRow(StorageReport.Row row) {
    return new GenericInternalRow(
        new Object[] {
          UTF8String.fromString(row.section()),
          UTF8String.fromString(row.name()),
          row.versions(),
          row.files(),
          row.bytes(),
          UTF8String.fromString(row.detail())
        });
  }

  /** The storage report as a DataFrame of {@link #STORAGE_SCHEMA}; it is small (counters, no paths). */
  public static Dataset<Row> storageDataset(SparkSession spark, StorageReport report) {
    return spark.createDataFrame(report.rows().stream().map(ResultRows::storageRow).toList(), STORAGE_SCHEMA);
  }

  /**
   * The columns of {@code lance.cleanup_all}'s rows: {@code table}, {@code status} ({@link
   * TableStatus#sqlName()}), the cleanup's counters (NULL for a table that did not run), {@code
   * error} (NULL for one that did).
   */
  public static final StructType FLEET_CLEANUP_SCHEMA = fleetSchema(schemaOf(CleanupResult.counterNames()));

  /**
   * The columns of {@code lance.describe_storage_all}'s rows: {@code table}, {@code status}, the
   * report's totals ({@link StorageReport#totalNames()}, NULL for a table that did not run), {@code error}.
   */
  public static final StructType FLEET_DESCRIBE_SCHEMA = fleetSchema(schemaOf(StorageReport.totalNames()));

  /**
   * The columns of {@code lance.optimize_all}'s rows: {@code table}, {@code status}, optimize's
   * counters ({@link OptimizeResult#counterNames()}, NULL for a table that did not run), {@code error}.
   */
  public static final StructType FLEET_OPTIMIZE_SCHEMA = fleetSchema(OPTIMIZE_SCHEMA);

  private ResultRows() {}

  private static StructType fleetSchema(StructType counters) {
    List<StructField> fields = new ArrayList<>();
    fields.add(DataTypes.createStructField("table", DataTypes.StringType, false));
    fields.add(DataTypes.createStructField("status", DataTypes.StringType, false));
    for (StructField counter : counters.fields()) {
      fields.add(DataTypes.createStructField(counter.name(), DataTypes.LongType, true));
    }
    fields.add(DataTypes.createStructField("error", DataTypes.StringType, true));
    return new StructType(fields.toArray(new StructField[0]));
  }

  /** A fleet's rows as a Dataset of {@code schema} ({@link #FLEET_CLEANUP_SCHEMA}, {@link #FLEET_DESCRIBE_SCHEMA}). */
  public static Dataset<Row> fleetDataset(SparkSession spark, StructType schema, List<TableOutcome> outcomes) {
    List<Row> rows = new ArrayList<>();
    for (TableOutcome outcome : outcomes) {
      rows.add(RowFactory.create(fleetValues(outcome, schema, false)));
    }
    return spark.createDataFrame(rows, schema);
  }

  /** A fleet's rows of {@code schema}, as a procedure returns them. */
  public static InternalRow[] fleetInternalRows(StructType schema, List<TableOutcome> outcomes) {
    return outcomes.stream().map(outcome -> new GenericInternalRow(fleetValues(outcome, schema, true))).toArray(InternalRow[]::new);
  }

  /** The row's values in schema order: a counter the outcome lacks is NULL. */
  private static Object[] fleetValues(TableOutcome outcome, StructType schema, boolean internal) {
    StructField[] fields = schema.fields();
    Object[] values = new Object[fields.length];
    values[0] = text(outcome.table(), internal);
    values[1] = text(outcome.status().sqlName(), internal);
    for (int i = 2; i < fields.length - 1; i++) {
      values[i] = outcome.counters().get(fields[i].name());
    }
    values[fields.length - 1] = outcome.error() == null ? null : text(outcome.error(), internal);
    return values;
  }

  private static Object text(String value, boolean internal) {
    return internal ? UTF8String.fromString(value) : value;
  }

  private static StructType counterSchema() {
    return schemaOf(CleanupResult.counterNames())
        .add(CleanupResult.MARK_MODE, DataTypes.StringType, false)
        .add(CleanupResult.MANIFESTS_READ, DataTypes.LongType, false)
        .add(CleanupResult.RESUMED_FROM, DataTypes.StringType, false);
  }

  /** One non-null BIGINT column per named counter, in order. */
  private static StructType schemaOf(Map<String, Long> namedCounters) {
    return schemaOf(namedCounters.keySet());
  }

  private static StructType schemaOf(java.util.Collection<String> counterNames) {
    List<StructField> fields = new ArrayList<>();
    for (String name : counterNames) {
      fields.add(DataTypes.createStructField(name, DataTypes.LongType, false));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  /** Named counters as a row of the matching schema. */
  public static Row row(Map<String, Long> namedCounters) {
    return RowFactory.create(namedCounters.values().toArray());
  }

  public static InternalRow internalRow(Map<String, Long> namedCounters) {
    return new GenericInternalRow(namedCounters.values().toArray());
  }

  public static Row counterRow(CleanupResult result) {
    return RowFactory.create(result.row().values().toArray());
  }

  public static InternalRow counterInternalRow(CleanupResult result) {
    return new GenericInternalRow(
        result.row().values().stream().map(value -> value instanceof String text ? UTF8String.fromString(text) : value).toArray());
  }

  /** A one-row Dataset of the counters. */
  public static Dataset<Row> countersDataset(SparkSession spark, CleanupResult result) {
    return spark.createDataFrame(List.of(counterRow(result)), COUNTER_SCHEMA);
  }

  public static Row fileRow(CandidateFile file) {
    return RowFactory.create(file.path(), kindName(file), file.bytes(), file.reason().sqlName());
  }

  public static InternalRow fileInternalRow(CandidateFile file) {
    return new GenericInternalRow(
        new Object[] {
          UTF8String.fromString(file.path()),
          UTF8String.fromString(kindName(file)),
          file.bytes(),
          UTF8String.fromString(file.reason().sqlName())
        });
  }

  private static String kindName(CandidateFile file) {
    return file.kind().name().toLowerCase(Locale.ROOT);
  }
}
