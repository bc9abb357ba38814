package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestNaming;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class AutoCleanupConfigTest {
  private static final Instant NOW = Instant.parse("2026-03-01T00:00:00Z");
  private static final List<ManifestLocation> VERSIONS = LongStream.rangeClosed(3, 8)
      .mapToObj(v -> new ManifestLocation("tree/b/_versions/" + v + ".manifest", v, 100, 0, ManifestNaming.V1))
      .toList();

  @Test
  void doesNotCleanABranchWithoutAnInterval() {
    assertThat(policyFor(8, Map.of(AutoCleanupConfig.OLDER_THAN, "1d"))).isEmpty();
  }

  @Test
  void cleansOnlyAtMultiplesOfTheInterval() {
    assertThat(policyFor(8, Map.of(AutoCleanupConfig.INTERVAL, "3"))).isEmpty();
    assertThat(policyFor(9, Map.of(AutoCleanupConfig.INTERVAL, "3"))).isPresent();
    assertThat(policyFor(7, Map.of(AutoCleanupConfig.INTERVAL, "0"))).isPresent();
  }

  @Test
  void withOnlyAnIntervalEveryOldVersionQualifiesAndTaggedVersionsAreKeptSilently() {
    CleanupPolicy policy = policyFor(8, Map.of(AutoCleanupConfig.INTERVAL, "1")).orElseThrow();
    assertThat(policy.beforeTimestamp()).isEmpty();
    assertThat(policy.beforeVersion()).isEmpty();
    assertThat(policy.errorIfTaggedOldVersions()).isFalse();
    assertThat(policy.deleteUnverified()).isFalse();
    assertThat(policy.cleanReferencedBranches()).isFalse();
  }

  @Test
  void turnsOlderThanAndRetainVersionsIntoBounds() {
    CleanupPolicy policy = policyFor(8, Map.of(
        AutoCleanupConfig.INTERVAL, "1",
        AutoCleanupConfig.OLDER_THAN, "2h 30m",
        AutoCleanupConfig.RETAIN_VERSIONS, "2",
        "lance.auto_cleanup.referenced_branch", "true")).orElseThrow();
    assertThat(policy.beforeTimestamp()).contains(NOW.minus(Duration.ofMinutes(150)));
    assertThat(policy.beforeVersion()).hasValue(7);
    assertThat(policy.cleanReferencedBranches()).isFalse();
  }

  @Test
  void retainingMoreVersionsThanExistKeepsThemAll() {
    CleanupPolicy policy = policyFor(8, Map.of(AutoCleanupConfig.INTERVAL, "1", AutoCleanupConfig.RETAIN_VERSIONS, "20"))
        .orElseThrow();
    assertThat(policy.beforeVersion()).hasValue(3);
  }

  @Test
  void failsTheRunOnAValueThatDoesNotParse() {
    assertThatThrownBy(() -> policyFor(8, Map.of(AutoCleanupConfig.INTERVAL, "often")))
        .isInstanceOf(MaintenanceException.class).hasMessageContaining("lance.auto_cleanup.interval");
    assertThatThrownBy(() -> policyFor(8, Map.of(AutoCleanupConfig.INTERVAL, "1", AutoCleanupConfig.OLDER_THAN, "14")))
        .isInstanceOf(MaintenanceException.class).hasMessageContaining("time unit needed");
  }

  private static Optional<CleanupPolicy> policyFor(long latestVersion, Map<String, String> config) {
    Manifest latest = new Manifest("tree/b/_versions/x.manifest", latestVersion, 0, Optional.empty(), 0, 0,
        Optional.of("b"), "", List.of(), List.of(), List.of(), Optional.empty(), config);
    return AutoCleanupConfig.cascadePolicy(latest, VERSIONS, NOW, "branch b of t");
  }
}
