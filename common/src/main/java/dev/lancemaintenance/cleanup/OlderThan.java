package dev.lancemaintenance.cleanup;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses an {@code older_than} argument, shared by the command line and the SQL procedures: a
 * duration such as {@code 7d}, {@code 36h}, {@code 15m}, {@code 0s}, {@code PT2H}, or an ISO instant.
 */
public final class OlderThan {
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d|w)");

  private OlderThan() {}

  /** The cut-off instant for {@code value} relative to {@code now}. */
  public static Instant beforeTimestamp(String value, Instant now) {
    return window(value).map(now::minus).orElseGet(() -> instant(value));
  }

  /**
   * The window {@code value} names ({@code 7d}, {@code PT2H}), or empty when it names an instant;
   * for callers that take "now" later than they parse, such as optimize after compacting.
   */
  public static Optional<Duration> window(String value) {
    String trimmed = value.trim();
    Matcher matcher = SHORT_DURATION.matcher(trimmed.toLowerCase(Locale.ROOT));
    if (matcher.matches()) {
      return Optional.of(durationOf(Long.parseLong(matcher.group(1)), matcher.group(2)));
    }
    if (!trimmed.toUpperCase(Locale.ROOT).startsWith("P")) {
      return Optional.empty();
    }
    try {
      Duration duration = Duration.parse(trimmed);
      if (duration.isNegative()) {
        throw new IllegalArgumentException("older_than must not be negative: " + value);
      }
      return Optional.of(duration);
    } catch (DateTimeParseException e) {
      throw invalid(value);
    }
  }

  private static Instant instant(String value) {
    try {
      return Instant.parse(value.trim());
    } catch (DateTimeParseException e) {
      throw invalid(value);
    }
  }

  private static IllegalArgumentException invalid(String value) {
    return new IllegalArgumentException(
        "older_than takes a duration (7d, 36h, 15m, 0s, PT2H) or an ISO instant (2026-01-31T00:00:00Z), not '"
            + value
            + "'");
  }

  private static Duration durationOf(long amount, String unit) {
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "s" -> Duration.ofSeconds(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      case "d" -> Duration.ofDays(amount);
      case "w" -> Duration.ofDays(7 * amount);
      default -> throw new IllegalArgumentException("Unknown duration unit " + unit);
    };
  }
}
