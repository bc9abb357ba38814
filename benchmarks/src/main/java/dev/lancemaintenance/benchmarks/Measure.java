package dev.lancemaintenance.benchmarks;

/** Times one contender run and reads the process gauges around it. */
final class Measure {
  private Measure() {}

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** A sample without the file comparison, which the caller adds. */
  static RunSample run(Contender contender, Table table, long beforeVersion) {
    if (contender instanceof SelfMeasuring self) {
      return self.measure(table, beforeVersion);
    }
    ProcessGauges gauges = new ProcessGauges();
    gauges.reset();
    long cpuBefore = processCpuNanos();
    ThreadCpu threadCpu = ThreadCpu.start();
    long start = System.nanoTime();
    long metadataBytes = contender.clean(table, beforeVersion);
    long wall = System.nanoTime() - start;
    // CPU time does not grow with the machine's load as wall time does: what to compare on a busy
    // machine (it includes the JIT's and the collector's threads, and an in-JVM store's).
    long cpu = processCpuNanos() - cpuBefore;
    System.out.printf("  %s: %d ms of CPU in this JVM%n", contender.name(), cpu / 1_000_000);
    threadCpu.print(contender.name(), cpu);
    return new RunSample(wall, 0, metadataBytes, gauges.bytesReadSinceReset(), gauges.peakHeapBytes(),
        gauges.peakRssBytes(), false);
  }
}
