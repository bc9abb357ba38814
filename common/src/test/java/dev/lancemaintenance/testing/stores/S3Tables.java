package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.FixtureRows;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ScalarIndexKind;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The table every engine's S3 test cleans, written into the bucket by the Lance SDK (so object
 * mtimes are the server's clock, as on S3), and the comparisons those tests make on object listings.
 */
public final class S3Tables {
  private S3Tables() {}

  /** Appends, a predicate delete, a BTREE index, a merge-insert update, compaction, an append. */
  public static LanceTableFixture writeCompactedHistory(S3ProxyServer s3, String bucket, String key) {
    LanceTableFixture table =
        LanceTableFixture.createAt(
            S3ProxyServer.lanceUri(bucket, key),
            FixtureOptions.defaults().withStorageOptions(s3.lanceStorageOptions()));
    long v1 = table.append(30);
    table.append(30);
    table.deleteWhere("id % 3 = 0");
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.update(LanceTableFixture.firstId(v1) + 1, 5);
    table.compact();
    table.append(10);
    return table;
  }

  /** Keys listed {@code before} and not {@code after}. */
  public static Set<String> removed(SortedMap<String, Long> before, SortedMap<String, Long> after) {
    Set<String> removed = new TreeSet<>(before.keySet());
    removed.removeAll(after.keySet());
    return removed;
  }

  /**
   * Files per top-level directory ({@code data}, {@code _indices}, ...): how two tables written by
   * the same recipe compare, since their data and index file names are random UUIDs.
   */
  public static Map<String, Long> countsByTopDirectory(Set<String> files) {
    return files.stream()
        .collect(Collectors.groupingBy(
            f -> f.contains("/") ? f.substring(0, f.indexOf('/')) : "", TreeMap::new, Collectors.counting()));
  }
}
