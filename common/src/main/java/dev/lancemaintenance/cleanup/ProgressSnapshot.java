package dev.lancemaintenance.cleanup;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One reading of a {@link CleanupProgress}: what a progress bar, a log line or a metric shows.
 *
 * <p>The rate and the ETA belong to the stage's own unit of work, the only one whose total is known
 * while it runs: manifests while marking (out of the plan's), files while sweeping (out of the
 * decided candidates). Other stages have a count but no ETA.
 *
 * @param dataset the dataset being cleaned, as the logs name it
 * @param stage the stage's label ({@code "2/6 mark"}), empty before the first
 * @param work what the stage works through, which its rate and ETA count
 * @param manifestsRead manifests decoded so far
 * @param manifestsToRead manifests the plan has to decode
 * @param filesListed files listed in the managed directories
 * @param candidates files decided to go
 * @param filesRemoved files removed (in a dry run, counted), manifests included
 * @param bytesFreed bytes of the files removed
 * @param elapsed since the dataset's run began
 * @param stageElapsed since the current stage began
 */
public record ProgressSnapshot(
    String dataset,
    String stage,
    Work work,
    long manifestsRead,
    long manifestsToRead,
    long filesListed,
    long candidates,
    long filesRemoved,
    long bytesFreed,
    Duration elapsed,
    Duration stageElapsed) {

  /** What a stage works through, out of a total known while it runs. */
  public enum Work {
    /** Manifests decoded, out of the plan's (mark). */
    MANIFESTS,
    /** Files removed, out of the decided candidates (sweep, release). */
    FILES,
    /** No total known while the stage runs (plan, list, decide). */
    UNCOUNTED
  }

  /** Units of the stage's work per second since it began: manifests marking, files sweeping. */
  public OptionalDouble rate() {
    double seconds = stageElapsed.toNanos() / 1e9;
    if (seconds <= 0 || work == Work.UNCOUNTED) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of((work == Work.MANIFESTS ? manifestsRead : filesRemoved) / seconds);
  }

  /** Time left in the stage at its rate so far; empty with no rate or nothing done yet. */
  public Optional<Duration> eta() {
    OptionalDouble rate = rate();
    if (rate.isEmpty() || rate.getAsDouble() <= 0) {
      return Optional.empty();
    }
    long left = work == Work.MANIFESTS ? manifestsToRead - manifestsRead : candidates - filesRemoved;
    return Optional.of(Duration.ofNanos((long) (Math.max(0, left) / rate.getAsDouble() * 1e9)));
  }
}
