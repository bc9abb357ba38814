package dev.lancemaintenance.cleanup;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * The one grammar of an {@code older_than} value, on every entry point: an ISO instant ({@code
 * 2026-01-31T00:00:00Z}), an ISO duration ({@code PT2H}), or a duration in the grammar Lance reads
 * {@code lance.auto_cleanup.older_than} with ({@link HumanDuration}: {@code 7d}, {@code 36h}, {@code
 * 14days}, {@code 2h 30m}, {@code 0s}), so a value valid in a table's config is valid in SQL too.
 *
 * <p>A cut-off too far in the past to be an {@link Instant} is the earliest instant: as for
 * instants outside the manifests' nanosecond range, no version is that old.
 */
public final class OlderThan {
  static final String GRAMMAR =
      "a duration (7d, 36h, 14days, 2h 30m, 0s, PT2H) or an ISO instant (2026-01-31T00:00:00Z)";

  private OlderThan() {}

  /** The cut-off instant for {@code value} relative to {@code now}. */
  public static Instant beforeTimestamp(String value, Instant now) {
    String trimmed = value.trim();
    if (looksLikeInstant(trimmed)) {
      try {
        return Instant.parse(trimmed);
      } catch (DateTimeParseException e) {
        throw invalid(value, "not an ISO instant");
      }
    }
    return minusSaturated(now, duration(value));
  }

  /**
   * The window {@code value} names ({@code 7d}, {@code PT2H}), or empty when it names an instant;
   * for callers that take "now" later than they parse, such as optimize after compacting.
   */
  public static Optional<Duration> window(String value) {
    return looksLikeInstant(value.trim()) ? Optional.empty() : Optional.of(duration(value));
  }

  /** The duration {@code value} names (the duration forms of {@link #beforeTimestamp}). */
  public static Duration duration(String value) {
    String trimmed = value.trim();
    if (trimmed.toUpperCase(Locale.ROOT).startsWith("P")) {
      try {
        Duration duration = Duration.parse(trimmed);
        if (duration.isNegative()) {
          throw invalid(value, "negative");
        }
        return duration;
      } catch (DateTimeParseException e) {
        throw invalid(value, "not an ISO duration");
      }
    }
    try {
      return HumanDuration.parse(trimmed);
    } catch (IllegalArgumentException e) {
      throw invalid(value, e.getMessage());
    }
  }

  private static boolean looksLikeInstant(String value) {
    return value.length() >= 10 && value.matches("^[+-]?\\d{4,}-\\d{2}-\\d{2}.*");
  }

  private static Instant minusSaturated(Instant now, Duration duration) {
    try {
      return now.minus(duration);
    } catch (DateTimeException | ArithmeticException e) {
      return Instant.MIN;
    }
  }

  private static IllegalArgumentException invalid(String value, String why) {
    return new IllegalArgumentException("older_than takes " + GRAMMAR + ", not '" + value + "' (" + why + ")");
  }
}
