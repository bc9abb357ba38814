package dev.lancemaintenance.benchmarks;

/** Times one contender run and reads the process gauges around it. */
final class Measure {
  private Measure() {}

  /** A sample without the file comparison, which the caller adds. */
  static RunSample run(Contender contender, Table table, long beforeVersion) {
    if (contender instanceof SelfMeasuring self) {
      return self.measure(table, beforeVersion);
    }
    ProcessGauges gauges = new ProcessGauges();
    gauges.reset();
    long start = System.nanoTime();
    long metadataBytes = contender.clean(table, beforeVersion);
    long wall = System.nanoTime() - start;
    return new RunSample(wall, 0, metadataBytes, gauges.bytesReadSinceReset(), gauges.peakHeapBytes(),
        gauges.peakRssBytes(), false);
  }
}
