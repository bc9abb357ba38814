package dev.lancemaintenance.compaction;

import java.io.Serializable;

/**
 * What compaction tasks did, a monoid like the cleanup's counters: each task reports its own, the
 * driver sums the committed ones. Names are those of Lance's {@code CompactionMetrics}.
 *
 * @param fragmentsRemoved fragments replaced by merged ones
 * @param fragmentsAdded merged fragments written
 * @param filesRemoved data and deletion files no longer referenced by the new version (still on
 *     disk until a cleanup removes the old versions)
 * @param filesAdded data files written
 * @param bytesWritten bytes of the data files written
 */
public record CompactionCounters(
    long fragmentsRemoved, long fragmentsAdded, long filesRemoved, long filesAdded, long bytesWritten)
    implements Serializable {
  public static final CompactionCounters ZERO = new CompactionCounters(0, 0, 0, 0, 0);

  public CompactionCounters {
    if (fragmentsRemoved < 0 || fragmentsAdded < 0 || filesRemoved < 0 || filesAdded < 0 || bytesWritten < 0) {
      throw new IllegalArgumentException("compaction counters must be >= 0");
    }
  }

  public CompactionCounters plus(CompactionCounters other) {
    return new CompactionCounters(
        fragmentsRemoved + other.fragmentsRemoved,
        fragmentsAdded + other.fragmentsAdded,
        filesRemoved + other.filesRemoved,
        filesAdded + other.filesAdded,
        bytesWritten + other.bytesWritten);
  }
}
