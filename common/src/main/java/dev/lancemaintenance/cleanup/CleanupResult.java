package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What a cleanup did (or, in a dry run, would do).
 *
 * @param table the table, redacted
 * @param mode whether files were deleted
 * @param readVersion the latest version the plan observed; newer versions were left alone
 * @param counters what was removed
 * @param durationMillis wall time of the run
 * @param markMode how the run learnt what the retained versions reference (the options {@code mode}
 *     and {@code verify})
 * @param manifestsRead manifests the run decoded to mark: every listed one in a full run, only those
 *     the ledger could not answer for in an incremental one
 * @param resumedFrom the dead run whose sweep this run resumed instead of listing and deciding in
 *     full ({@code run-<uuid>}), empty when it did not
 */
public record CleanupResult(
    String table, CleanupMode mode, long readVersion, CleanupCounters counters, long durationMillis,
    MarkMode markMode, long manifestsRead, String resumedFrom)
    implements Serializable {
  /** The column of {@link #markMode}: {@code full}, {@code incremental} or {@code verify}. */
  public static final String MARK_MODE = "mark_mode";
  /** The column of {@link #manifestsRead}. */
  public static final String MANIFESTS_READ = "manifests_read";
  /** The column of {@link #resumedFrom}. */
  public static final String RESUMED_FROM = "resumed_from";

  private static final CleanupResult EMPTY =
      new CleanupResult("", CleanupMode.DRY_RUN, 0, CleanupCounters.ZERO, 0, MarkMode.FULL, 0);

  public CleanupResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(counters, "counters");
    Objects.requireNonNull(markMode, "markMode");
    if (manifestsRead < 0) {
      throw new IllegalArgumentException("manifests read must not be negative: " + manifestsRead);
    }
    Objects.requireNonNull(resumedFrom, "resumedFrom");
  }

  /** The result of a run that listed and decided in full. */
  public CleanupResult(
      String table, CleanupMode mode, long readVersion, CleanupCounters counters, long durationMillis,
      MarkMode markMode, long manifestsRead) {
    this(table, mode, readVersion, counters, durationMillis, markMode, manifestsRead, "");
  }

  /** This result with another duration: a cleanup of referenced branches times the whole run. */
  public CleanupResult withDuration(long millis) {
    return new CleanupResult(table, mode, readVersion, counters, millis, markMode, manifestsRead, resumedFrom);
  }

  /**
   * The counters under their result names (snake_case, Lance's names where Lance has them; see
   * {@link CleanupCounters#named()}), then {@code read_version} and {@code duration_ms}, in the order
   * every engine reports them.
   */
  public Map<String, Long> namedCounters() {
    Map<String, Long> named = new LinkedHashMap<>(counters.named());
    named.put("read_version", readVersion);
    named.put("duration_ms", durationMillis);
    return named;
  }

  /** The names of {@link #namedCounters()}, in order: the first columns of a result row. */
  public static List<String> counterNames() {
    return List.copyOf(EMPTY.namedCounters().keySet());
  }

  /**
   * The result row every entry point shows (the CLI's text and JSON, the Spark and Flink {@code
   * CALL} rows, PySpark's dict): {@link #namedCounters()}, then {@value #MARK_MODE} (a string) and
   * {@value #MANIFESTS_READ}, which came later and so come last, and {@value #RESUMED_FROM} (a
   * string, empty unless the run resumed a dead run's sweep), later still.
   */
  public Map<String, Object> row() {
    Map<String, Object> row = new LinkedHashMap<>(namedCounters());
    row.put(MARK_MODE, markMode.name().toLowerCase(Locale.ROOT));
    row.put(MANIFESTS_READ, manifestsRead);
    row.put(RESUMED_FROM, resumedFrom);
    return row;
  }

  /** The names of {@link #row()}, in order. */
  public static List<String> rowNames() {
    return List.copyOf(EMPTY.row().keySet());
  }
}
