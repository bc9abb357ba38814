package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * What this process used during one run: the peak of the Java heap (the sum of each heap pool's
 * peak since the reset: an upper bound, sampled by the JVM at every allocation and GC), the peak
 * resident set (VmHWM, which also shows the SDK's native memory), and bytes read by the process
 * ({@code rchar}: every read system call, the SDK's native reads included). The last two are Linux
 * only and empty elsewhere.
 */
final class ProcessGauges {
  private static final Path IO = Path.of("/proc/self/io");
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");

  private final List<MemoryPoolMXBean> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
      .filter(pool -> pool.getType() == MemoryType.HEAP)
      .toList();
  private long readAtStart;

  /** Collects garbage and resets every peak, so the next readings cover only what follows. */
  void reset() {
    System.gc();
    heapPools.forEach(MemoryPoolMXBean::resetPeakUsage);
    try {
      // "5" resets the peak resident set size of this process (Linux >= 4.0).
      Files.writeString(CLEAR_REFS, "5");
    } catch (IOException | UnsupportedOperationException e) {
      // Not Linux or not allowed: peak RSS then covers the whole process life.
    }
    readAtStart = procField(IO, "rchar:").orElse(0);
  }

  long peakHeapBytes() {
    return heapPools.stream().mapToLong(pool -> pool.getPeakUsage().getUsed()).sum();
  }

  OptionalLong peakRssBytes() {
    OptionalLong kib = procField(STATUS, "VmHWM:");
    return kib.isPresent() ? OptionalLong.of(kib.getAsLong() * 1024) : kib;
  }

  OptionalLong bytesReadSinceReset() {
    OptionalLong now = procField(IO, "rchar:");
    return now.isPresent() ? OptionalLong.of(now.getAsLong() - readAtStart) : now;
  }

  private static OptionalLong procField(Path file, String key) {
    try {
      for (String line : Files.readAllLines(file)) {
        if (line.startsWith(key)) {
          return OptionalLong.of(Long.parseLong(line.substring(key.length()).trim().split("\\s+")[0]));
        }
      }
    } catch (IOException | RuntimeException e) {
      // Absent on this platform.
    }
    return OptionalLong.empty();
  }
}
