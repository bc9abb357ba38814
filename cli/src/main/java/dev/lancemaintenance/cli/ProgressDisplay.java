package dev.lancemaintenance.cli;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CleanupProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows a run's {@link CleanupProgress} on stderr while it goes on, so that stdout (and {@code
 * --json}) holds only the result: on a terminal, one bar redrawn in place a few times a second;
 * otherwise (a pipe, a log file, a scheduler) one plain line every interval. {@link #finish()}
 * prints the last reading on its own line, so a finished run always shows its final counts, however
 * short it was.
 */
final class ProgressDisplay implements AutoCloseable {
  /** How often a terminal bar is redrawn: often enough to look live, rarely enough to cost nothing. */
  static final Duration BAR_REDRAW = Duration.ofMillis(200);
  /** Erase the terminal line from the cursor: the previous bar may have been longer. */
  private static final String CLEAR_TO_END = "\u001b[K";

  private final CleanupProgress progress;
  private final PrintStream err;
  private final boolean terminal;
  private final ScheduledExecutorService ticker;

  private ProgressDisplay(CleanupProgress progress, PrintStream err, boolean terminal, Duration every) {
    this.progress = progress;
    this.err = err;
    this.terminal = terminal;
    this.ticker = Executors.newSingleThreadScheduledExecutor(DaemonThreads.named("lance-progress"));
    long millis = every.toMillis();
    ticker.scheduleAtFixedRate(() -> draw(false), millis, millis, TimeUnit.MILLISECONDS);
  }

  /** A bar redrawn every {@link #BAR_REDRAW}, for a terminal. */
  static ProgressDisplay bar(CleanupProgress progress, PrintStream err) {
    return new ProgressDisplay(progress, err, true, BAR_REDRAW);
  }

  /** A plain line every {@code interval}, for anything that is not a terminal. */
  static ProgressDisplay lines(CleanupProgress progress, PrintStream err, Duration interval) {
    return new ProgressDisplay(progress, err, false, interval);
  }

  /** Redraws the bar in place, or prints a plain line; the last reading ends its line. */
  private synchronized void draw(boolean last) {
    if (terminal) {
      err.print("\r" + ProgressLine.bar(progress.snapshot()) + CLEAR_TO_END + (last ? System.lineSeparator() : ""));
    } else {
      err.println(prefixed(ProgressLine.plain(progress.snapshot())));
    }
    err.flush();
  }

  static String prefixed(String line) {
    return "lance-maintenance progress: " + line;
  }

  /** Stops the ticker and shows the last reading, ending the bar's line: the run succeeded. */
  void finish() {
    close();
    draw(true);
  }

  /**
   * Stops the ticker without another reading: a failed run ends with its one-line error instead.
   * A bar left on the line is erased, so that the error starts a clean line.
   */
  @Override
  public void close() {
    ticker.shutdownNow();
    try {
      ticker.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (terminal) {
      synchronized (this) {
        err.print("\r" + CLEAR_TO_END);
        err.flush();
      }
    }
  }
}
