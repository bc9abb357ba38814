package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The orphan sweep's two differences from a cleanup, and nothing else: no version qualifies, and an
 * unreferenced file is decided against the window, not against the earliest retained version.
 */
class OrphanSweepDecisionTest {
  private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  private static final CleanupPolicy SWEEP =
      CleanupPolicy.builder().olderThan(Duration.ofDays(3), NOW).orphanSweep().build();
  /** The table's oldest (retained) version: 30 days old. */
  private static final long OLDEST_VERSION_NANOS = NOW.minus(Duration.ofDays(30)).toEpochMilli() * 1_000_000L;

  @Test
  void noVersionQualifiesHoweverOld() {
    assertThat(SWEEP.qualifies(1, 0)).isFalse();
    assertThat(SWEEP.deleteUnverified()).as("delete_unverified").isTrue();
  }

  @Test
  void anUnreferencedFileGoesPastTheWindowEvenWhenNewerThanTheOldestVersion() {
    DecideByPath decide = new DecideByPath(DecisionContext.of(facts(SWEEP), summary()));

    assertThat(decide.decide(file("data/old.lance", Duration.ofDays(4)), Optional.empty())).as("4 days old").isPresent();
    assertThat(decide.decide(file("data/new.lance", Duration.ofDays(2)), Optional.empty())).as("2 days old").isEmpty();
    assertThat(decide.decide(file("data/kept.lance", Duration.ofDays(40)), Optional.of(MarkState.KEPT)))
        .as("referenced").isEmpty();
    assertThat(decide.decide(file("_refs/tags/t.json", Duration.ofDays(40)), Optional.empty())).as("not managed").isEmpty();
  }

  @Test
  void aCleanupWithTheSamePolicyButNoSweepKeepsFilesNewerThanTheOldestVersion() {
    CleanupPolicy cleanup = CleanupPolicy.builder().olderThan(Duration.ofDays(3), NOW).beforeVersion(0)
        .deleteUnverified(true).build();
    DecideByPath decide = new DecideByPath(DecisionContext.of(facts(cleanup), summary()));

    assertThat(decide.decide(file("data/old.lance", Duration.ofDays(4)), Optional.empty())).isEmpty();
  }

  @Test
  void optionsThatChooseVersionsAreRefused() {
    assertThatThrownBy(() -> CleanupPolicy.builder().olderThan(Duration.ofDays(3), NOW).beforeVersion(2).orphanSweep().build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("before_version");
    assertThatThrownBy(() -> CleanupPolicy.builder().olderThan(Duration.ofDays(3), NOW).retainLast(2).orphanSweep().build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retain_last");
  }

  private static RetentionFacts facts(CleanupPolicy policy) {
    return new RetentionFacts("t", DatasetRef.MAIN, policy, 5, Map.of(), Set.of(), NOW.toEpochMilli());
  }

  private static MarkSummary summary() {
    return new MarkSummary(5, 0, OLDEST_VERSION_NANOS, Map.of());
  }

  private static FileEntry file(String path, Duration age) {
    return new FileEntry(path, 10, NOW.minus(age).toEpochMilli());
  }
}
