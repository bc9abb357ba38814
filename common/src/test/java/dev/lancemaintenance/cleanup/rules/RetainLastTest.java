package dev.lancemaintenance.cleanup.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetainLastTest {
  private static final List<Long> VERSIONS = List.of(1L, 2L, 4L, 7L, 8L);

  @Test
  void theOldestKeptIsTheNthNewestListedVersionGapsIncluded() {
    assertThat(RetainLast.oldestKept(VERSIONS, 1)).as("the latest alone").isEqualTo(8);
    assertThat(RetainLast.oldestKept(VERSIONS, 3)).as("8, 7 and 4").isEqualTo(4);
    assertThat(RetainLast.oldestKept(VERSIONS, 5)).as("all five").isEqualTo(1);
    assertThat(RetainLast.oldestKept(VERSIONS, 50)).as("more than there are").isEqualTo(1);
  }

  @Test
  void refusesToKeepNone() {
    assertThatThrownBy(() -> RetainLast.oldestKept(VERSIONS, 0)).hasMessageContaining("retain_last must be >= 1: 0");
    assertThatThrownBy(() -> CleanupPolicy.builder().retainLast(0)).hasMessageContaining("retain_last must be >= 1");
  }

  @Test
  void onlyEverLowersTheVersionBound() {
    CleanupPolicy lower = CleanupPolicy.builder().beforeVersion(2).retainLast(2).build().forVersions(VERSIONS);
    CleanupPolicy higher = CleanupPolicy.builder().beforeVersion(8).retainLast(2).build().forVersions(VERSIONS);
    CleanupPolicy alone = CleanupPolicy.builder().retainLast(2).build().forVersions(VERSIONS);

    assertThat(lower.beforeVersion()).as("before_version already keeps more").hasValue(2);
    assertThat(higher.beforeVersion()).as("retain_last keeps 7 and 8").hasValue(7);
    assertThat(alone.beforeVersion()).hasValue(7);
    assertThat(alone.forVersions(VERSIONS)).as("resolving twice").isEqualTo(alone);
  }

  @Test
  void leavesTheTimeBoundAsItIs() {
    Instant cutoff = Instant.parse("2026-01-01T00:00:00Z");
    CleanupPolicy resolved = CleanupPolicy.builder().beforeTimestamp(cutoff).retainLast(3).build().forVersions(VERSIONS);

    assertThat(resolved.beforeTimestamp()).hasValue(cutoff);
    assertThat(resolved.qualifies(2, 0)).as("old and outside the 3 newest").isTrue();
    assertThat(resolved.qualifies(4, 0)).as("old but among the 3 newest").isFalse();
  }

  @Test
  void aPolicyWithoutItIsUnchanged() {
    CleanupPolicy policy = CleanupPolicy.builder().beforeVersion(5).build();

    assertThat(policy.forVersions(VERSIONS)).isSameAs(policy);
  }
}
