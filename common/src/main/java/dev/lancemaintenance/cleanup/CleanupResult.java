package dev.lancemaintenance.cleanup;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
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
 */
public record CleanupResult(
    String table, CleanupMode mode, long readVersion, CleanupCounters counters, long durationMillis)
    implements Serializable {
  public CleanupResult {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(counters, "counters");
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

  /** The names of {@link #namedCounters()}, in order: the columns of a result row. */
  public static List<String> counterNames() {
    return List.copyOf(new CleanupResult("", CleanupMode.DRY_RUN, 0, CleanupCounters.ZERO, 0).namedCounters().keySet());
  }
}
