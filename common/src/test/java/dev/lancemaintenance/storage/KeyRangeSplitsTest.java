package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyRangeSplitsTest {
  /** u64::MAX, as an unsigned long. */
  private static final long U64_MAX = -1L;

  /** {@code u64::MAX - version}, 20 digits: a V2 manifest's name. */
  private static String manifest(long version) {
    return Long.toUnsignedString(U64_MAX - version) + ".manifest";
  }

  private static String dataFile(long leading) {
    String bits = Long.toBinaryString(leading);
    return "0".repeat(24 - bits.length()) + bits + "0123456789abcdef0123456789.lance";
  }

  @Test
  void theNewestThousandOfTwoThousandManifestsLeaveTwoRangesSplitHalfWayThroughTheOlderVersions() {
    List<String> page = new ArrayList<>();
    for (long version = 2002; version > 1002; version--) {
      page.add(manifest(version));
    }
    List<String> splits = KeyRangeSplits.after(page, 1000);
    assertThat(splits).hasSize(1);
    // Versions 1002..0 are left above the page; the split leaves about half on either side.
    String split = splits.get(0);
    long splitVersion = U64_MAX - Long.parseUnsignedLong(split + "0".repeat(20 - split.length()));
    assertThat(splitVersion).isBetween(495L, 505L);
    assertThat(splits.get(0)).isGreaterThan(page.get(page.size() - 1));
  }

  @Test
  void dataFilesSpreadOverTheirLeadingBitsGetRangesInProportionToWhatIsLeft() {
    // A page covering the first seventh of the space: about six pages are left.
    List<String> page = new ArrayList<>();
    long space = 1L << 24;
    for (int i = 0; i < 1000; i++) {
      page.add(dataFile(i * (space / 7000)));
    }
    List<String> splits = KeyRangeSplits.after(page, 1000);
    assertThat(splits).hasSizeBetween(6, 7).isSorted().allSatisfy(split -> {
      assertThat(split).hasSizeLessThanOrEqualTo(24).matches("[01]+");
      assertThat(split).isGreaterThan(page.get(page.size() - 1));
    });

    // A page covering a little over half of 2,050 files: the rest is a page and a bit, two ranges.
    List<String> half = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      half.add(dataFile(i * (space / 2050)));
    }
    assertThat(KeyRangeSplits.after(half, 1000)).hasSize(1);

    // A page covering a hundredth: ~99 pages left, more than eight ranges of eight pages each
    // would take; a range per eight pages instead (13).
    List<String> hundredth = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      hundredth.add(dataFile(i * (space / 100_000)));
    }
    assertThat(KeyRangeSplits.after(hundredth, 1000)).hasSize(12);
    // The same page, the ranges' pages holding 250 keys: four times the pages, capped.
    assertThat(KeyRangeSplits.after(hundredth, 250)).hasSize(KeyRangeSplits.MAX_RANGES_LARGE - 1);

    // A page covering a fifteenth: ~14 pages left, eight ranges of two pages.
    List<String> fifteenth = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      fifteenth.add(dataFile(i * (space / 15_000)));
    }
    assertThat(KeyRangeSplits.after(fifteenth, 1000)).hasSize(KeyRangeSplits.MAX_RANGES - 1);

    // A page covering a thousandth (a data/ of a million files): capped.
    List<String> narrow = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      narrow.add(dataFile(i * (space / 1_000_000)));
    }
    assertThat(KeyRangeSplits.after(narrow, 1000)).hasSize(KeyRangeSplits.MAX_RANGES_LARGE - 1).isSorted();
  }

  @Test
  void aPageReachingNearTheTopOrNamesOfNoKnownShapeGiveNoSplit() {
    List<String> nearTop = List.of(dataFile((1L << 24) - 3), dataFile((1L << 24) - 2));
    assertThat(KeyRangeSplits.after(nearTop, 1000)).isEmpty();
    assertThat(KeyRangeSplits.after(List.of("a.txt", "b.txt", "zzz"), 1000)).isEmpty();
    assertThat(KeyRangeSplits.after(List.of("0.manifest", "99999.manifest"), 1000)).as("near the top of [0, 1)").isEmpty();
    assertThat(KeyRangeSplits.after(List.of(), 1000)).isEmpty();
  }

  @Test
  void transactionsOfTwoThousandVersionsSplitWhatIsLeftAfterTheirLeadingDigits() {
    // Read versions 0..2001 in the store's order (unpadded: 0, 1, 10, 100, 1000, 1001, ...); the
    // first page ends inside the ones.
    List<String> all = new ArrayList<>();
    for (int version = 0; version < 2002; version++) {
      all.add(version + "-0123abcd.txn");
    }
    all.sort(null);
    List<String> page = all.subList(0, 1000);
    List<String> splits = KeyRangeSplits.after(page, 1000);
    assertThat(splits).isNotEmpty().isSorted().allSatisfy(split -> {
      assertThat(split).matches("[0-9]+");
      assertThat(split).isGreaterThan(page.get(999));
    });
    // Every range of the rest is a page or less.
    List<String> rest = all.subList(1000, all.size());
    List<String> bounds = new ArrayList<>(splits);
    bounds.add("\uffff");
    int from = 0;
    for (String bound : bounds) {
      int to = from;
      while (to < rest.size() && rest.get(to).compareTo(bound) <= 0) {
        to++;
      }
      assertThat(to - from).as("keys up to %s", bound).isLessThanOrEqualTo(1000);
      from = to;
    }
    assertThat(from).isEqualTo(rest.size());
  }

  @Test
  void stagingNamesBeforeTheManifestsNeitherCountNorMoveTheSpan() {
    List<String> page = new ArrayList<>(List.of(".tmp_a", ".tmp_b"));
    for (long version = 2002; version > 1004; version--) {
      page.add(manifest(version));
    }
    assertThat(KeyRangeSplits.after(page, 1000)).hasSize(1);
  }

  @Test
  void everySplitPointIsAscii() {
    List<String> page = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      page.add(dataFile(i * 17L));
    }
    assertThat(KeyRangeSplits.after(page, 1000)).isNotEmpty().allSatisfy(split -> assertThat(split).matches("\\p{ASCII}+"));
  }
}
