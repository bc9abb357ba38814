package dev.lancemaintenance.testing;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Content of every version, tag and branch version the SDK lists for a table, keyed
 * {@code main/v3}, {@code branch/b1/v5}, {@code tag/first}. Compare two with {@code equals}.
 */
public record TableSnapshot(SortedMap<String, TableContent> entries) {
  public TableSnapshot {
    entries = Collections.unmodifiableSortedMap(new TreeMap<>(entries));
  }

  public TableContent get(String key) {
    TableContent content = entries.get(key);
    if (content == null) {
      throw new IllegalArgumentException("no entry " + key + " in " + entries.keySet());
    }
    return content;
  }

  /** Entries whose version failed to read (empty when everything reads). */
  public Map<String, TableContent> unreadable() {
    Map<String, TableContent> failed = new TreeMap<>();
    entries.forEach((k, v) -> {
      if (v instanceof TableContent.Unreadable) {
        failed.put(k, v);
      }
    });
    return failed;
  }
}
