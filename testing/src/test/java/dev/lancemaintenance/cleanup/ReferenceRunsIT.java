package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.Scenario;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store of the contract's SDK side: what one module wrote, the next reads back unchanged
 * without building or running the SDK again; an entry a crashed run left without its marker is
 * written afresh.
 */
class ReferenceRunsIT {
  @TempDir Path dir;

  private final AtomicInteger builds = new AtomicInteger();
  private final Function<Path, Scenario> appends = d -> {
    builds.incrementAndGet();
    return ConformanceScenarios.appends(d);
  };

  @Test
  void aStoredScenarioAndItsReferencesAreReusedAsWritten() {
    ReferenceRuns.Prepared first;
    ReferenceRuns.Reference refused = new ReferenceRuns.Reference(
        new OracleOutcome.Failed("tagged old versions\nv2 = first"), new TreeMap<>());
    try (ReferenceRuns runs = ReferenceRuns.at(dir)) {
      first = runs.scenario("appends", appends, CleanupContractTest::policiesFor);
      runs.reference(first, 1, () -> refused);
    }
    try (ReferenceRuns runs = ReferenceRuns.at(dir)) {
      ReferenceRuns.Prepared second = runs.scenario("appends", appends, CleanupContractTest::policiesFor);
      assertThat(builds).as("scenario builds").hasValue(1);
      assertThat(second.policies()).isEqualTo(first.policies());
      assertThat(second.before()).isEqualTo(first.before());
      assertThat(second.pristine()).isEqualTo(first.pristine());
      assertThat(runs.reference(second, 1, () -> {
        throw new AssertionError("the SDK ran again for a stored reference");
      })).isEqualTo(refused);
    }
  }

  @Test
  void aScenarioWithoutItsMarkerIsWrittenAgain() throws Exception {
    try (ReferenceRuns runs = ReferenceRuns.at(dir)) {
      runs.scenario("appends", appends, CleanupContractTest::policiesFor);
    }
    try (var markers = Files.walk(dir)) {
      for (Path marker : markers.filter(p -> p.getFileName().toString().equals("scenario.properties")).toList()) {
        Files.delete(marker);
      }
    }
    try (ReferenceRuns runs = ReferenceRuns.at(dir)) {
      runs.scenario("appends", appends, CleanupContractTest::policiesFor);
    }
    assertThat(builds).as("scenario builds").hasValue(2);
  }
}
