package dev.lancemaintenance.cleanup.stage;

/**
 * How fast a sweep may delete: engines share one global rate among their tasks and decide how to
 * wait. Kept out of {@link SweepBatch} so the stage stays free of clocks and threads.
 */
public interface DeletePacer {
  /** Blocks until {@code files} more deletes may be issued. */
  void acquire(int files);

  /** Waits before retry {@code attempt} (1-based) of deletes that failed, e.g. when throttled. */
  void backoff(int attempt);

  /** No limit and no waiting: for tests and dry runs. */
  DeletePacer UNLIMITED =
      new DeletePacer() {
        @Override
        public void acquire(int files) {}

        @Override
        public void backoff(int attempt) {}
      };
}
