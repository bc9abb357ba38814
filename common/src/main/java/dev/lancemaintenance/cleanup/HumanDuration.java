package dev.lancemaintenance.cleanup;

import java.math.BigInteger;
import java.time.Duration;
import java.util.Map;

/**
 * Parses durations the way Lance reads {@code lance.auto_cleanup.older_than}: the grammar of the
 * Rust {@code humantime} crate's {@code parse_duration} ({@code 14days}, {@code 2h 30m}, {@code
 * 1hour 12min 5s}). A duration is one or more terms, each an unsigned integer and a unit; spaces may
 * separate terms and a number from its unit, and a digit right after a unit starts the next term.
 * Months are 30.44 days and years 365.25 days, as humantime defines them.
 */
public final class HumanDuration {
  private static final long NANOS_PER_SECOND = 1_000_000_000L;
  /** Nanoseconds per unit; the unit names are humantime's, including its short and plural forms. */
  private static final Map<String, Long> SUBSECOND_UNITS = Map.of(
      "nanos", 1L, "nsec", 1L, "ns", 1L,
      "usec", 1_000L, "us", 1_000L, "µs", 1_000L,
      "millis", 1_000_000L, "msec", 1_000_000L, "ms", 1_000_000L);
  private static final Map<String, Long> SECOND_UNITS = Map.ofEntries(
      Map.entry("seconds", 1L), Map.entry("second", 1L), Map.entry("secs", 1L), Map.entry("sec", 1L), Map.entry("s", 1L),
      Map.entry("minutes", 60L), Map.entry("minute", 60L), Map.entry("mins", 60L), Map.entry("min", 60L), Map.entry("m", 60L),
      Map.entry("hours", 3_600L), Map.entry("hour", 3_600L), Map.entry("hrs", 3_600L), Map.entry("hr", 3_600L), Map.entry("h", 3_600L),
      Map.entry("days", 86_400L), Map.entry("day", 86_400L), Map.entry("d", 86_400L),
      Map.entry("weeks", 604_800L), Map.entry("week", 604_800L), Map.entry("w", 604_800L),
      Map.entry("months", 2_630_016L), Map.entry("month", 2_630_016L), Map.entry("M", 2_630_016L),
      Map.entry("years", 31_557_600L), Map.entry("year", 31_557_600L), Map.entry("y", 31_557_600L));
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private HumanDuration() {}

  /** The duration {@code text} names; {@link IllegalArgumentException} saying why when it names none. */
  public static Duration parse(String text) {
    Cursor cursor = new Cursor(text);
    cursor.skipSpaces();
    if (cursor.atEnd()) {
      throw new IllegalArgumentException("empty duration: \"" + text + "\"");
    }
    BigInteger nanos = BigInteger.ZERO;
    while (!cursor.atEnd()) {
      BigInteger number = cursor.number();
      String unit = cursor.unit();
      nanos = nanos.add(number.multiply(BigInteger.valueOf(nanosPer(text, unit))));
      if (nanos.divide(BigInteger.valueOf(NANOS_PER_SECOND)).compareTo(LONG_MAX) > 0) {
        throw new IllegalArgumentException("duration too large: \"" + text + "\"");
      }
      cursor.skipSpaces();
    }
    BigInteger[] secondsAndNanos = nanos.divideAndRemainder(BigInteger.valueOf(NANOS_PER_SECOND));
    return Duration.ofSeconds(secondsAndNanos[0].longValueExact(), secondsAndNanos[1].longValueExact());
  }

  private static long nanosPer(String text, String unit) {
    if (unit.isEmpty()) {
      throw new IllegalArgumentException("time unit needed in \"" + text + "\", for example 14days or 2h");
    }
    Long subsecond = SUBSECOND_UNITS.get(unit);
    if (subsecond != null) {
      return subsecond;
    }
    Long seconds = SECOND_UNITS.get(unit);
    if (seconds == null) {
      throw new IllegalArgumentException("unknown time unit \"" + unit + "\" in \"" + text
          + "\"; units: ns, us, ms, s/sec, m/min, h/hours, d/days, w/weeks, M/months, y/years");
    }
    return seconds * NANOS_PER_SECOND;
  }

  /** Reads terms from the text; humantime lets spaces sit between the digits of a number too. */
  private static final class Cursor {
    private final String text;
    private int at;

    Cursor(String text) {
      this.text = text;
    }

    boolean atEnd() {
      return at >= text.length();
    }

    void skipSpaces() {
      while (!atEnd() && Character.isWhitespace(text.charAt(at))) {
        at++;
      }
    }

    BigInteger number() {
      StringBuilder digits = new StringBuilder();
      while (!atEnd() && (isDigit(text.charAt(at)) || Character.isWhitespace(text.charAt(at)))) {
        if (isDigit(text.charAt(at))) {
          digits.append(text.charAt(at));
        }
        at++;
      }
      if (digits.length() == 0) {
        throw new IllegalArgumentException("expected a number at offset " + at + " of \"" + text + "\"");
      }
      if (!atEnd() && !isUnitChar(text.charAt(at))) {
        throw new IllegalArgumentException("invalid character at offset " + at + " of \"" + text + "\"");
      }
      return new BigInteger(digits.toString());
    }

    /** Letters up to a space, a digit (the next term) or the end. */
    String unit() {
      int start = at;
      while (!atEnd() && isUnitChar(text.charAt(at))) {
        at++;
      }
      if (!atEnd() && !isDigit(text.charAt(at)) && !Character.isWhitespace(text.charAt(at))) {
        throw new IllegalArgumentException("invalid character at offset " + at + " of \"" + text + "\"");
      }
      return text.substring(start, at);
    }

    private static boolean isDigit(char c) {
      return c >= '0' && c <= '9';
    }

    private static boolean isUnitChar(char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == 'µ';
    }
  }
}
