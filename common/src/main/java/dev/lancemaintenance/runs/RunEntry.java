package dev.lancemaintenance.runs;

import dev.lancemaintenance.cleanup.CleanupResult;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One run of the table's maintenance history: its start record, its end record when it has one, and
 * the state that makes of them. The row every entry point shows ({@link #COLUMNS}, {@link #values()}):
 * {@code history --json}, {@code lance.maintenance_history} on Spark and Flink.
 */
public record RunEntry(RunStart start, Optional<RunEnd> end, RunState state) {
  /** The type of a column, for the engines' schemas. */
  public enum ColumnType {
    STRING,
    LONG,
    /** An {@link Instant}. */
    TIMESTAMP
  }

  /** A column of the history's rows. */
  public record Column(String name, ColumnType type) {}

  /**
   * The columns, in order: the run, its state and stage, its mark mode and manifests read, the
   * result's counters under their result names (NULL until the run ended), its policy, its error,
   * and where it recorded the files it deleted ({@code files}, the directory, and {@code file_parts};
   * NULL unless it ran with {@code record_files}).
   */
  public static final List<Column> COLUMNS = columns();

  public RunEntry {
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(state, "state");
  }

  private static List<Column> columns() {
    List<Column> columns = new ArrayList<>(List.of(
        new Column("run_id", ColumnType.STRING),
        new Column("state", ColumnType.STRING),
        new Column("action", ColumnType.STRING),
        new Column("engine", ColumnType.STRING),
        new Column("dataset", ColumnType.STRING),
        new Column("started_at", ColumnType.TIMESTAMP),
        new Column("ended_at", ColumnType.TIMESTAMP),
        new Column("stage", ColumnType.STRING),
        new Column("mark_mode", ColumnType.STRING),
        new Column("manifests_read", ColumnType.LONG)));
    CleanupResult.counterNames().forEach(name -> columns.add(new Column(name, ColumnType.LONG)));
    columns.add(new Column("policy", ColumnType.STRING));
    columns.add(new Column("error", ColumnType.STRING));
    columns.add(new Column("files", ColumnType.STRING));
    columns.add(new Column("file_parts", ColumnType.LONG));
    return Collections.unmodifiableList(columns);
  }

  /** The values of {@link #COLUMNS} for this run, NULL where it has none (an unfinished run's end). */
  public List<Object> values() {
    List<Object> values = new ArrayList<>(List.of(
        start.runId(), state.label(), start.action(), start.engine(), start.datasetName(), start.startedAt()));
    RunEnd ended = end.orElse(null);
    values.add(ended == null ? null : ended.endedAt());
    values.add(ended == null || ended.stage().isEmpty() ? null : ended.stage());
    values.add(ended == null ? null : ended.markMode());
    values.add(ended == null || ended.manifestsRead().isEmpty() ? null : ended.manifestsRead().getAsLong());
    for (String counter : CleanupResult.counterNames()) {
      values.add(ended == null ? null : ended.counters().get(counter));
    }
    values.add(start.policy());
    values.add(ended == null || ended.error().isEmpty() ? null : ended.error());
    values.add(filesDir().orElse(null));
    values.add(filesDir().isPresent() ? ended.fileParts().getAsLong() : null);
    return Collections.unmodifiableList(values);
  }

  /** Where the run recorded the files it deleted ({@link RecordedFiles}), when it ran with {@code record_files}. */
  public Optional<String> filesDir() {
    return end.filter(ended -> ended.fileParts().isPresent()).map(ended -> RunRecords.filesDir(start));
  }
}
