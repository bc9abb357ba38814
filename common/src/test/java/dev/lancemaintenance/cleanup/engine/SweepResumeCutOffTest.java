package dev.lancemaintenance.cleanup.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.runs.RunPlan;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link SweepResume#otherVersionsExpire}: a later cut-off (a duration resolved against a later
 * clock) keeps the dead run's decision only while it is no later than the oldest version that run
 * retained with its files.
 */
class SweepResumeCutOffTest {
  private static final String DEAD_CUTOFF = "2026-11-01T00:00:00Z";
  /** The dead run's oldest retained version: 2026-11-01T00:00:05.000000007Z, in epoch nanoseconds. */
  private static final String OLDEST_RETAINED = "1793491205000000007";
  private static final RunPlan DEAD = plan(DEAD_CUTOFF).with(SweepResume.EARLIEST_RETAINED, OLDEST_RETAINED);

  @Test
  void theSameCutOffOrALaterOneUpToTheOldestRetainedVersionExpiresTheSameVersions() {
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan(DEAD_CUTOFF))).isEmpty();
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan("2026-11-01T00:00:03Z"))).isEmpty();
    // A version qualifies strictly before the cut-off: one at exactly the oldest timestamp still stays.
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan("2026-11-01T00:00:05.000000007Z"))).isEmpty();
  }

  @Test
  void aCutOffPastTheOldestRetainedVersionExpiresItToo() {
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan("2026-11-01T00:00:05.000000008Z")))
        .contains("before_timestamp 2026-11-01T00:00:00Z -> 2026-11-01T00:00:05.000000008Z passes its oldest retained"
            + " version (2026-11-01T00:00:05.000000007Z)");
  }

  @Test
  void anEarlierCutOffOrOneSetOnOneSideOnlyMayExpireOtherVersions() {
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan("2026-10-31T23:59:59Z")))
        .contains("before_timestamp 2026-11-01T00:00:00Z -> 2026-10-31T23:59:59Z");
    assertThat(SweepResume.otherVersionsExpire(DEAD, plan("none"))).contains("before_timestamp 2026-11-01T00:00:00Z -> none");
    assertThat(SweepResume.otherVersionsExpire(plan("none"), plan(DEAD_CUTOFF))).isPresent();
  }

  @Test
  void aPlanThatDoesNotSayWhenItsOldestRetainedVersionWasWrittenResumesOnlyTheSameCutOff() {
    assertThat(SweepResume.otherVersionsExpire(plan(DEAD_CUTOFF), plan(DEAD_CUTOFF))).isEmpty();
    assertThat(SweepResume.otherVersionsExpire(plan(DEAD_CUTOFF), plan("2026-11-01T00:00:01Z")))
        .hasValueSatisfying(why -> assertThat(why).endsWith("does not say when its oldest retained version was written"));
  }

  private static RunPlan plan(String beforeTimestamp) {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("dataset", "main");
    facts.put(SweepResume.BEFORE_TIMESTAMP, beforeTimestamp);
    return new RunPlan(facts, 4);
  }
}
