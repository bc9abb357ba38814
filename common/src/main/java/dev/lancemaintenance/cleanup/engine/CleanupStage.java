package dev.lancemaintenance.cleanup.engine;

import dev.lancemaintenance.cleanup.ProgressSnapshot.Work;

/**
 * The stages of one dataset's cleanup, in the order {@link CleanupRun} runs them on every engine,
 * and their labels in logs, Spark job descriptions and Flink operator documentation: the one place
 * a stage is numbered, so that "[4/6 decide]" means the same on every engine.
 */
public enum CleanupStage {
  /** Driver: lists the dataset's manifests and refs and cuts the work into slices and listings. */
  PLAN("plan", Work.UNCOUNTED),
  /** Parallel: decodes the manifests of each slice into reference marks; then the tagged-versions gate. */
  MARK("mark", Work.MANIFESTS),
  /** Parallel: lists the managed directories. */
  LIST("list", Work.UNCOUNTED),
  /** Keyed by reference key: decides each listed file; then the referenced-files gate. */
  DECIDE("decide", Work.UNCOUNTED),
  /** Parallel: deletes (or, in a dry run, counts) the decided files in batches. */
  SWEEP("sweep", Work.FILES),
  /** Parallel: deletes the expired manifests, only when no delete of {@link #SWEEP} failed. */
  RELEASE("release manifests", Work.FILES);

  private final String word;
  private final Work work;

  CleanupStage(String word, Work work) {
    this.word = word;
    this.work = work;
  }

  /** What the stage works through, which its progress rate and ETA count. */
  public Work work() {
    return work;
  }

  /** {@code "4/6 decide"}: the stage's number, the number of stages, its name. */
  public String label() {
    return number() + "/" + values().length + " " + word;
  }

  /**
   * The label of the stages from this one to {@code last}, for an engine that runs them as one job:
   * {@code "3-4/6 list, decide"}.
   */
  public String through(CleanupStage last) {
    if (last.ordinal() <= ordinal()) {
      throw new IllegalArgumentException(last + " does not follow " + this);
    }
    StringBuilder words = new StringBuilder(word);
    for (int stage = ordinal() + 1; stage <= last.ordinal(); stage++) {
      words.append(", ").append(values()[stage].word);
    }
    return number() + "-" + last.number() + "/" + values().length + " " + words;
  }

  /** The stage's place in the run, from 1. */
  public int number() {
    return ordinal() + 1;
  }
}
