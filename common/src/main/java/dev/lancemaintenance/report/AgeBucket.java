package dev.lancemaintenance.report;

import java.time.Duration;
import java.util.Locale;

/** Ages the report groups versions and unreferenced files by. */
public enum AgeBucket {
  UNDER_1H(Duration.ofHours(1)),
  UNDER_1D(Duration.ofDays(1)),
  UNDER_7D(Duration.ofDays(7)),
  UNDER_30D(Duration.ofDays(30)),
  OLDER(null);

  private final Duration bound;

  AgeBucket(Duration bound) {
    this.bound = bound;
  }

  /** The bucket of something {@code ageMillis} old (negative ages, clock skew, count as young). */
  public static AgeBucket of(long ageMillis) {
    for (AgeBucket bucket : values()) {
      if (bucket.bound == null || ageMillis < bucket.bound.toMillis()) {
        return bucket;
      }
    }
    return OLDER;
  }

  /** The report's name: {@code under_1h} ... {@code older}. */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
