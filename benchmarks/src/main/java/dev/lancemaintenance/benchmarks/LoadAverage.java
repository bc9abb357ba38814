package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The 1/5/15-minute load averages, printed with every result: numbers mean little without them. */
final class LoadAverage {
  private LoadAverage() {}

  static String now() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return String.format("%.2f", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }
}
