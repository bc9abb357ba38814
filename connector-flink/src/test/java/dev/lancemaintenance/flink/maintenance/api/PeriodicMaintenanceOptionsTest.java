package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link PeriodicMaintenance#options} is checked against the catalogue of its kind of run when the
 * job is built: a mistake never reaches a run that deletes (issue 13).
 */
class PeriodicMaintenanceOptionsTest {
  private static final String TABLE = "file:/tmp/never-read.lance";

  @Test
  void eachKindTakesItsOwnCataloguesOptions() {
    assertThatCode(() -> PeriodicMaintenance.cleanup(TABLE).options(Map.of("older_than", "1h", "branch", "dev")))
        .doesNotThrowAnyException();
    assertThatCode(() -> PeriodicMaintenance.compact(TABLE).options(Map.of("partial_progress", "4")))
        .doesNotThrowAnyException();
    assertThatCode(() -> PeriodicMaintenance.optimize(TABLE).options(Map.of("older_than", "1h", "num_threads", "2")))
        .doesNotThrowAnyException();
  }

  @Test
  void anOptionOfAnotherKindOrAMisspeltOneIsAnErrorListingTheValidNames() {
    assertThatThrownBy(() -> PeriodicMaintenance.compact(TABLE).options(Map.of("older_than", "0s")))
        .hasMessageContaining("Unknown compact argument 'older_than'").hasMessageContaining("partial_progress");
    assertThatThrownBy(() -> PeriodicMaintenance.optimize(TABLE).options(Map.of("branch", "dev")))
        .hasMessageContaining("Unknown optimize argument 'branch'");
    assertThatThrownBy(() -> PeriodicMaintenance.cleanup(TABLE).options(Map.of("olderthan", "0s")))
        .hasMessageContaining("Unknown cleanup argument 'olderthan'").hasMessageContaining("older_than");
  }

  @Test
  void aNullOrMalformedValueIsAnErrorNamingTheOption() {
    Map<String, String> nullDryRun = new HashMap<>();
    nullDryRun.put("dry_run", null);

    assertThatThrownBy(() -> PeriodicMaintenance.optimize(TABLE).options(nullDryRun)).hasMessageContaining("'dry_run' is NULL");
    assertThatThrownBy(() -> PeriodicMaintenance.optimize(TABLE).options(Map.of("target_rows_per_fragment", "many")))
        .hasMessageContaining("'target_rows_per_fragment' takes a whole number");
    assertThatThrownBy(() -> PeriodicMaintenance.cleanup(TABLE).options(Map.of("older_than", "7 dayz")))
        .hasMessageContaining("older_than").hasMessageContaining("7 dayz");
  }
}
