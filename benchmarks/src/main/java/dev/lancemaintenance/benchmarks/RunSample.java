package dev.lancemaintenance.benchmarks;

import java.util.OptionalLong;

/**
 * One timed run of one contender.
 *
 * @param metadataBytes bytes of table metadata the contender read, counted through its storage
 *     (-1: it cannot be counted, see {@code processReadBytes})
 * @param sameAsSdk whether the files left equal exactly those the SDK's reference run left
 */
record RunSample(long wallNanos, long filesDeleted, long metadataBytes, OptionalLong processReadBytes,
    long peakHeapBytes, OptionalLong peakRssBytes, boolean sameAsSdk) {

  /** The one-line form a child JVM prints and its parent parses. */
  String encode() {
    return String.join(" ", "RESULT", Long.toString(wallNanos), Long.toString(filesDeleted),
        Long.toString(metadataBytes), Long.toString(processReadBytes.orElse(-1)),
        Long.toString(peakHeapBytes), Long.toString(peakRssBytes.orElse(-1)), Boolean.toString(sameAsSdk));
  }

  static RunSample decode(String line) {
    String[] f = line.trim().split(" ");
    if (f.length != 8 || !f[0].equals("RESULT")) {
      throw new IllegalArgumentException("not a RESULT line: " + line);
    }
    return new RunSample(Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), optional(f[4]),
        Long.parseLong(f[5]), optional(f[6]), Boolean.parseBoolean(f[7]));
  }

  private static OptionalLong optional(String value) {
    long v = Long.parseLong(value);
    return v < 0 ? OptionalLong.empty() : OptionalLong.of(v);
  }
}
