package dev.lancemaintenance.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keeps the runner working: one toy run (a 50-version {@code large}) of the SDK, the local engine
 * and the floor, one timed run each. Numbers are not checked; that every contender leaves exactly
 * the files the SDK leaves is.
 */
class BenchmarkRunnerIT {
  @TempDir Path work;

  @Test
  void everyContenderLeavesTheFilesTheSdkLeaves() {
    RunnerOptions options = RunnerOptions.parse(new String[] {
        "--shape", "large", "--versions", "50", "--work", work.toString(),
        "--engines", "sdk,local,floor", "--repeats", "1", "--warmups", "0"});

    ResultTable results = new BenchmarkRunner(options).run();

    for (String contender : new String[] {"sdk", "local", "floor"}) {
      assertThat(results.samples(contender)).as(contender).singleElement().satisfies(sample -> {
        // 51 manifests, 51 transactions and 50 appended data files go; the compacted version stays.
        assertThat(sample.filesDeleted()).isEqualTo(152);
        assertThat(sample.sameAsSdk()).isTrue();
        assertThat(sample.wallNanos()).isPositive();
      });
    }
    assertThat(results.samples("local").get(0).metadataBytes()).isPositive();
  }
}
