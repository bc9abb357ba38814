package dev.lancemaintenance.testing;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects a scenario's cutoffs while its history is written. A timestamp cutoff is taken right
 * after a commit and the next commit waits until the cutoff has passed, because the SDK takes
 * cutoffs in milliseconds while manifests carry finer timestamps.
 */
final class ScenarioBuilder {
  private static final long CUTOFF_GAP_MILLIS = 3;

  private final String name;
  private final LanceTableFixture table;
  private final TreeMap<String, Instant> instants = new TreeMap<>();
  private final TreeMap<String, Long> versions = new TreeMap<>();
  private final Map<String, LanceTableFixture> related = new HashMap<>();

  ScenarioBuilder(String name, LanceTableFixture table) {
    this.name = name;
    this.table = table;
  }

  /**
   * Labels an instant after {@code version} of {@code line} (main or a branch handle) and before
   * any later commit: the whole millisecond after its manifest timestamp.
   */
  ScenarioBuilder cutoffAfter(String label, LanceTableFixture line, long version) {
    Instant cutoff =
        line.manifestTimestamp(version).truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
    instants.put(label, cutoff);
    waitUntilPast(cutoff.plusMillis(CUTOFF_GAP_MILLIS));
    return this;
  }

  ScenarioBuilder cutoffAfter(String label, long version) {
    return cutoffAfter(label, table, version);
  }

  ScenarioBuilder version(String label, long version) {
    versions.put(label, version);
    return this;
  }

  ScenarioBuilder related(String label, LanceTableFixture fixture) {
    related.put(label, fixture);
    return this;
  }

  Scenario build() {
    return new Scenario(name, table, instants, versions, related);
  }

  private static void waitUntilPast(Instant instant) {
    while (Instant.now().isBefore(instant)) {
      try {
        Thread.sleep(1);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for a cutoff to pass", e);
      }
    }
  }
}
