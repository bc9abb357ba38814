package dev.lancemaintenance.testing;

import java.util.Objects;

/** What one version reads as through the SDK: rows and checksum, or why it did not read. */
public sealed interface TableContent {

  /**
   * @param rows rows the scan returned
   * @param checksum sum over rows of a hash of every column's value: independent of row order,
   *     fragment layout and compaction
   */
  record Readable(long rows, long checksum) implements TableContent {}

  record Unreadable(String reason) implements TableContent {
    public Unreadable {
      Objects.requireNonNull(reason, "reason");
    }
  }
}
