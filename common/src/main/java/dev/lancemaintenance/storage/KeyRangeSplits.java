package dev.lancemaintenance.storage;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Where to cut the rest of a directory's keys into ranges that can be listed side by side, from
 * its first page of keys: the one guess behind {@code S3KeyRangeListing}.
 *
 * <p>The split points only balance the ranges; they never decide what is listed. Whatever they
 * are, the ranges {@code (last, s1], (s1, s2], ..., (sk, +inf)} partition every key after the
 * first page, so the union of the ranges' listings is exactly the rest of the directory. They are
 * guessed from the names Lance gives (docs/lance-7-observations.md): a data file's name starts
 * with 24 binary digits ({@code data/{24 binary digits}{26 hex}.lance}), a V2 manifest's is the
 * 20 decimal digits of {@code u64::MAX - version}, a transaction's starts with its read version
 * ({@code {read_version}-{uuid}.txn}, no leading zeros). A name's leading digits, read as a
 * fraction ({@code 0.d1d2d3...}, which orders names as the store does), place it in the interval
 * [0, 1); a page's names cover a part of it, the page's density there estimates how many pages
 * are left above the page's last name, and that many ranges (at most {@link #MAX_RANGES}, more for
 * a directory of many pages: {@link #MAX_RANGES_LARGE}) share what is left evenly. Names of any
 * other shape give no split points: the directory's pages are then asked for one after the other,
 * as before.
 *
 * <p>Every split point is ASCII. S3 orders keys by their UTF-8 bytes, Java's strings by their
 * UTF-16 units; the two orders differ only between characters outside ASCII, so they agree on
 * which side of an ASCII split point every key falls (at the first unit where a key differs from
 * the split point, a non-ASCII character is above every ASCII one in both orders).
 */
final class KeyRangeSplits {
  /**
   * Ranges listed side by side for a directory of up to {@value #PAGES_PER_RANGE} of its pages a
   * range at most: each is a LIST request of its own even when it turns out empty, and each takes a
   * thread while it lists.
   */
  static final int MAX_RANGES = 8;
  /**
   * Pages a range of a directory of many pages is left with, about: past {@link #MAX_RANGES}
   * ranges of this many, one range more for this many pages more, up to {@link #MAX_RANGES_LARGE}.
   * A range's pages come one after another, so a {@code data/} of a million files (1,000 pages of
   * 1,000 keys) in eight ranges is 125 pages in a row; in 32, about 31.
   */
  static final int PAGES_PER_RANGE = 8;
  /**
   * Ranges for one directory at most, however many pages: each holds up to two pages ahead of the
   * caller and one in hand ({@code S3KeyRangeListing}), so 96 pages of statuses at most.
   */
  static final int MAX_RANGES_LARGE = 32;
  /**
   * Ranges per page expected to be left, in quarters: the estimate is a density read off one page,
   * and a directory whose rest is a page and a bit (2,0xx data files after a page of 1,000) must
   * not be left in one range of two pages.
   */
  private static final int MARGIN_QUARTERS = 5;

  /**
   * The shapes of names whose leading digits spread evenly enough over their interval, first
   * match wins. A shape reads at most {@code digits} leading digits, as the first digits of a
   * fraction: the value is those digits padded with zeros to {@code digits}.
   */
  private enum Shape {
    /** V2 manifests: exactly 20 decimal digits, {@code u64::MAX - version}, below 2^64. */
    MANIFEST_V2(10, 20, 20, BigInteger.ONE.shiftLeft(64)),
    /** Data files: 24 binary digits first (8 or more read, at most 24). */
    BINARY_LED(2, 8, 24, BigInteger.ONE.shiftLeft(24)),
    /** Transactions (and V1 manifests, deletion files): a decimal number without leading zeros. */
    DECIMAL_LED(10, 1, 20, BigInteger.TEN.pow(20));

    private final int radix;
    private final int minDigits;
    private final int digits;
    private final BigInteger top;

    Shape(int radix, int minDigits, int digits, BigInteger top) {
      this.radix = radix;
      this.minDigits = minDigits;
      this.digits = digits;
      this.top = top;
    }

    /** {@code name}'s leading digits as this shape reads them; null when the name does not fit. */
    BigInteger position(String name) {
      int run = 0;
      while (run < name.length() && name.charAt(run) < 0x80 && Character.digit(name.charAt(run), radix) >= 0) {
        run++;
      }
      boolean fits = this == MANIFEST_V2 ? run == digits : run >= minDigits;
      if (!fits) {
        return null;
      }
      String read = name.substring(0, Math.min(run, digits));
      return new BigInteger(read + "0".repeat(digits - read.length()), radix);
    }

    /** The shortest digits whose value is {@code value}: trailing zeros would only lengthen it. */
    String format(BigInteger value) {
      String text = value.toString(radix);
      String padded = "0".repeat(Math.max(0, digits - text.length())) + text;
      int end = padded.length();
      while (end > 1 && padded.charAt(end - 1) == '0') {
        end--;
      }
      return padded.substring(0, end);
    }
  }

  private KeyRangeSplits() {}

  /**
   * The split points for the keys after a directory's first page, ascending and all above the
   * page's last name; empty when the names have no shape we know or the rest looks like one page
   * or less.
   *
   * @param pageNames the page's names in the store's order, relative to the directory (files and
   *     any other keys)
   * @param keysPerPage the keys a range's page holds at most (the first page may be asked for
   *     fewer): how many of its pages a directory of many pages is left with
   */
  static List<String> after(List<String> pageNames, int keysPerPage) {
    if (keysPerPage < 1) {
      throw new IllegalArgumentException("keys per page must be > 0: " + keysPerPage);
    }
    if (pageNames.isEmpty()) {
      return List.of();
    }
    String lastName = pageNames.get(pageNames.size() - 1);
    for (Shape shape : Shape.values()) {
      BigInteger last = shape.position(lastName);
      if (last == null) {
        continue;
      }
      // The page's names of the same shape span [first, last]: a staging name before them (".tmp…"
      // sorts before digits) neither counts nor moves the span.
      for (String name : pageNames) {
        BigInteger first = shape.position(name);
        if (first != null) {
          return splits(shape, first, last, lastName, pageNames.size(), keysPerPage);
        }
      }
    }
    return List.of();
  }

  private static List<String> splits(
      Shape shape, BigInteger first, BigInteger last, String lastName, int pageKeys, int keysPerPage) {
    if (last.compareTo(shape.top) >= 0 || last.compareTo(first) < 0) {
      return List.of();
    }
    // The page's keys lay over [first, last]: as many are expected over each as large a part of the
    // space left above last, so left / covered pages are left. A range a little over a page costs a
    // round trip more in the row, one range more a request beside: a quarter more ranges than that.
    BigInteger covered = last.subtract(first).add(BigInteger.ONE);
    BigInteger left = shape.top.subtract(last).subtract(BigInteger.ONE);
    BigInteger withMargin = left.multiply(BigInteger.valueOf(MARGIN_QUARTERS));
    BigInteger quarterCovered = covered.multiply(BigInteger.valueOf(4));
    BigInteger ranges = withMargin.add(quarterCovered).subtract(BigInteger.ONE).divide(quarterCovered);
    int count = ranges.min(BigInteger.valueOf(MAX_RANGES)).intValueExact();
    if (count == MAX_RANGES) {
      // Many pages left: pageKeys * left / covered keys, in pages of keysPerPage, PAGES_PER_RANGE a range.
      BigInteger perRange = covered.multiply(BigInteger.valueOf((long) keysPerPage * PAGES_PER_RANGE));
      BigInteger large = left.multiply(BigInteger.valueOf(pageKeys)).add(perRange).subtract(BigInteger.ONE).divide(perRange);
      count = large.max(BigInteger.valueOf(MAX_RANGES)).min(BigInteger.valueOf(MAX_RANGES_LARGE)).intValueExact();
    }
    List<String> points = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      String point = shape.format(last.add(left.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(count))));
      // Above the last name and the point before (a digit prefix sorts before its longer names).
      if (point.compareTo(lastName) > 0 && (points.isEmpty() || point.compareTo(points.get(points.size() - 1)) > 0)) {
        points.add(point);
      }
    }
    return points;
  }
}
