package dev.lancemaintenance.cli;

import dev.lancemaintenance.cleanup.ProgressSnapshot;
import java.time.Duration;
import java.util.Locale;

/**
 * One reading of a run's progress as text: the stage, what it has counted, the bytes freed, and the
 * stage's rate and ETA where it has them. The terminal bar and the plain periodic lines are the
 * same words; the bar adds a gauge of the stage's own work.
 */
final class ProgressLine {
  private static final int GAUGE_WIDTH = 20;

  private ProgressLine() {}

  /**
   * {@code "[5/6 sweep] manifests 12/12, listed 340, removed 120/300 files, 1.2 MiB freed, 40.0
   * files/s, ETA 0:05, elapsed 0:03"}.
   */
  static String plain(ProgressSnapshot now) {
    StringBuilder line = new StringBuilder();
    line.append('[').append(now.stage().isEmpty() ? "1/6 plan" : now.stage()).append("] ");
    line.append("manifests ").append(now.manifestsRead()).append('/').append(now.manifestsToRead());
    line.append(", listed ").append(now.filesListed());
    line.append(", removed ").append(now.filesRemoved()).append('/').append(now.candidates()).append(" files");
    line.append(", ").append(bytes(now.bytesFreed())).append(" freed");
    now.rate().ifPresent(rate -> line.append(String.format(Locale.ROOT, ", %.1f %s/s", rate,
        now.work() == ProgressSnapshot.Work.MANIFESTS ? "manifests" : "files")));
    now.eta().ifPresent(eta -> line.append(", ETA ").append(clock(eta)));
    line.append(", elapsed ").append(clock(now.elapsed()));
    return line.toString();
  }

  /** The plain words after a gauge of the stage's work: {@code "[#######.............]  35% "}. */
  static String bar(ProgressSnapshot now) {
    return gauge(now) + plain(now);
  }

  private static String gauge(ProgressSnapshot now) {
    long done;
    long total;
    switch (now.work()) {
      case MANIFESTS -> {
        done = now.manifestsRead();
        total = now.manifestsToRead();
      }
      case FILES -> {
        done = now.filesRemoved();
        total = now.candidates();
      }
      default -> {
        return "";
      }
    }
    double fraction = total == 0 ? 1.0 : Math.min(1.0, (double) done / total);
    int filled = (int) Math.round(fraction * GAUGE_WIDTH);
    return "[" + "#".repeat(filled) + ".".repeat(GAUGE_WIDTH - filled) + "] "
        + String.format(Locale.ROOT, "%3d%% ", Math.round(fraction * 100));
  }

  /** Bytes in binary units, one decimal above a KiB: {@code "512 B"}, {@code "1.5 MiB"}. */
  static String bytes(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = bytes;
    int unit = -1;
    while (value >= 1024 && unit < units.length - 1) {
      value /= 1024;
      unit++;
    }
    return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
  }

  /** {@code "0:05"}, {@code "12:30"}, {@code "1:02:03"}: minutes and seconds, hours when there are any. */
  static String clock(Duration duration) {
    long seconds = duration.toSeconds();
    long hours = seconds / 3600;
    long minutes = seconds / 60 % 60;
    long secs = seconds % 60;
    return hours > 0
        ? String.format(Locale.ROOT, "%d:%02d:%02d", hours, minutes, secs)
        : String.format(Locale.ROOT, "%d:%02d", minutes, secs);
  }
}
