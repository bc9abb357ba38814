package dev.lancemaintenance.testing;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A real table built by {@link ConformanceScenarios}, with the cutoffs worth cleaning at.
 *
 * @param name scenario name (stable: tests and reports use it)
 * @param table the table to clean (main line)
 * @param instants labelled timestamp cutoffs, each strictly between two manifest timestamps
 * @param versions labelled version cutoffs
 * @param related other tables or handles the scenario made (branch handles, clones), by label
 */
public record Scenario(
    String name,
    LanceTableFixture table,
    SortedMap<String, Instant> instants,
    SortedMap<String, Long> versions,
    Map<String, LanceTableFixture> related) {

  public Scenario {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(table, "table");
    instants = Collections.unmodifiableSortedMap(new TreeMap<>(instants));
    versions = Collections.unmodifiableSortedMap(new TreeMap<>(versions));
    related = Map.copyOf(related);
  }

  public Instant instant(String label) {
    return require(instants, label);
  }

  public long version(String label) {
    return require(versions, label);
  }

  public LanceTableFixture related(String label) {
    return require(related, label);
  }

  private <T> T require(Map<String, T> map, String label) {
    T value = map.get(label);
    if (value == null) {
      throw new IllegalArgumentException(
          "scenario " + name + " has no " + label + "; it has " + map.keySet());
    }
    return value;
  }
}
