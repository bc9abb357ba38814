package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.ProgressSnapshot.Work;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Rate and ETA of a stage from its counts, timed by a clock the test moves by hand. */
class CleanupProgressTest {
  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final CleanupProgress progress = new CleanupProgress(nanos::get);

  private void advanceSeconds(long seconds) {
    nanos.addAndGet(Duration.ofSeconds(seconds).toNanos());
  }

  @Test
  void markingCountsManifestsAgainstThePlan() {
    progress.startDataset("file:/t", 100);
    advanceSeconds(3); // planning time is not the mark stage's
    progress.enterStage("2/6 mark", Work.MANIFESTS);
    advanceSeconds(5);
    progress.manifestsRead(25);

    ProgressSnapshot now = progress.snapshot();

    assertThat(now.elapsed()).isEqualTo(Duration.ofSeconds(8));
    assertThat(now.stageElapsed()).isEqualTo(Duration.ofSeconds(5));
    assertThat(now.rate()).hasValue(5.0);
    assertThat(now.eta()).hasValue(Duration.ofSeconds(15));
  }

  @Test
  void sweepingCountsRemovedFilesAgainstTheCandidates() {
    progress.startDataset("file:/t", 10);
    progress.candidates(1_000);
    progress.enterStage("5/6 sweep", Work.FILES);
    advanceSeconds(4);
    progress.removed(200, 4_096);

    ProgressSnapshot now = progress.snapshot();

    assertThat(now.rate()).hasValue(50.0);
    assertThat(now.eta()).hasValue(Duration.ofSeconds(16));
    assertThat(now.bytesFreed()).isEqualTo(4_096);
  }

  @Test
  void noRateOrEtaWhereTheStageHasNoTotalOrNothingIsDoneYet() {
    progress.startDataset("file:/t", 10);
    progress.enterStage("3/6 list", Work.UNCOUNTED);
    advanceSeconds(2);
    progress.filesListed(500);
    assertThat(progress.snapshot().rate()).isEmpty();
    assertThat(progress.snapshot().eta()).isEmpty();

    progress.enterStage("5/6 sweep", Work.FILES);
    assertThat(progress.snapshot().rate()).as("no time has passed in the stage").isEmpty();
    advanceSeconds(1);
    assertThat(progress.snapshot().rate()).hasValue(0.0);
    assertThat(progress.snapshot().eta()).as("nothing removed yet").isEmpty();
  }

  @Test
  void settlingAReducedCountNeverAddsToTheSameCountFedLive() {
    progress.startDataset("file:/t", 10);
    progress.manifestsRead(6);
    progress.settleManifestsRead(10);
    progress.settleManifestsRead(4);
    progress.removed(3, 30);
    progress.settleRemoved(new CleanupCounters(0, 30, 3, 0, 0, 0, 0, 0, 1, 2));

    ProgressSnapshot now = progress.snapshot();

    assertThat(now.manifestsRead()).isEqualTo(10);
    assertThat(now.filesRemoved()).isEqualTo(3);
    assertThat(now.bytesFreed()).isEqualTo(30);
    assertThat(now.candidates()).as("removed, failed and deferred").isEqualTo(6);
  }

  @Test
  void aNewDatasetStartsFromZero() {
    progress.startDataset("file:/t branch b", 5);
    progress.enterStage("5/6 sweep", Work.FILES);
    progress.removed(5, 50);
    advanceSeconds(9);

    progress.startDataset("file:/t", 7);
    ProgressSnapshot now = progress.snapshot();

    assertThat(now.dataset()).isEqualTo("file:/t");
    assertThat(now.stage()).isEmpty();
    assertThat(now.manifestsToRead()).isEqualTo(7);
    assertThat(now.filesRemoved()).isZero();
    assertThat(now.bytesFreed()).isZero();
    assertThat(now.elapsed()).isZero();
  }
}
