package dev.lancemaintenance.format;

import java.util.OptionalLong;

/**
 * The two ways Lance names the manifest of version {@code v} in {@code _versions/}.
 *
 * <p>Both schemes can sit side by side in one table (a table migrated from V1 to V2, or written by
 * different clients), so every name is parsed with the scheme its own shape announces. Versions are
 * unsigned 64-bit numbers held in a {@code long}; compare them with {@link Long#compareUnsigned}.
 */
public enum ManifestNaming {
  /** {@code {v}.manifest}, decimal without padding. */
  V1,
  /**
   * {@code {u64::MAX - v}.manifest}, zero-padded to 20 digits, so that a lexicographic listing
   * yields the newest version first.
   */
  V2;

  static final String SUFFIX = ".manifest";
  private static final int V2_DIGITS = 20;

  /** The file name of {@code version} under this scheme. */
  public String fileName(long version) {
    if (this == V1) {
      return Long.toUnsignedString(version) + SUFFIX;
    }
    // u64::MAX - v is the bitwise complement of v.
    String digits = Long.toUnsignedString(~version);
    return "0".repeat(V2_DIGITS - digits.length()) + digits + SUFFIX;
  }

  /**
   * The scheme a {@code *.manifest} file name follows, judged by its shape as Lance does: a
   * 20-character stem is V2, anything else V1.
   */
  public static ManifestNaming of(String fileName) {
    return stem(fileName).length() == V2_DIGITS ? V2 : V1;
  }

  /**
   * The version a {@code *.manifest} file name encodes under this scheme; empty when the stem is not
   * an unsigned 64-bit decimal number.
   */
  public OptionalLong parseVersion(String fileName) {
    String stem = stem(fileName);
    if (stem.isEmpty() || !allDigits(stem)) {
      return OptionalLong.empty();
    }
    long number;
    try {
      number = Long.parseUnsignedLong(stem);
    } catch (NumberFormatException e) {
      // More than 64 bits.
      return OptionalLong.empty();
    }
    return OptionalLong.of(this == V1 ? number : ~number);
  }

  /**
   * Whether every char is an ASCII digit. A loop, not {@code chars().allMatch}: the plan parses the
   * name of every listed manifest (101,010 on {@code huge-steady}), and the stream pipeline built
   * per name was half of the daily run's plan CPU after the listing itself (docs/benchmarks.md,
   * "stop 34").
   */
  private static boolean allDigits(String stem) {
    for (int at = 0; at < stem.length(); at++) {
      char c = stem.charAt(at);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  private static String stem(String fileName) {
    if (!fileName.endsWith(SUFFIX)) {
      throw new IllegalArgumentException("Not a manifest file name: " + fileName);
    }
    return fileName.substring(0, fileName.length() - SUFFIX.length());
  }
}
