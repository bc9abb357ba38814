package dev.lancemaintenance.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The CPU a run took, split by the JVM's thread groups (a thread's name without its number: {@code
 * S3Proxy-Jetty}, {@code latency-proxy-request}, {@code lance-s3-key-range}, {@code main}, ...):
 * on the object store the store (s3proxy), the latency proxy and our client share one JVM, and a
 * daily run whose requests go out late on two busy cores waits on this CPU, not on round trips
 * (docs/benchmarks.md, "Stop 37"). What no live Java thread took (the JIT's and the collector's
 * threads, and threads that ended during the run) is the rest of the process's CPU, printed as
 * {@code (JIT, GC, ended threads)}.
 *
 * <p>A thread is grouped by its name at the end of the run: a pooled thread that ran named tasks
 * ({@code DaemonThreads.beside} names a thread after its task while it runs) counts under its
 * idle name.
 */
final class ThreadCpu {
  private static final Pattern NUMBERED = Pattern.compile("(-(pool)?t?\\d+)+$");
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Map<Long, Long> before = new HashMap<>();

  private ThreadCpu() {}

  /** The CPU of every live thread now, to compare with at {@link #print}. */
  static ThreadCpu start() {
    ThreadCpu cpu = new ThreadCpu();
    for (long id : cpu.threads.getAllThreadIds()) {
      long nanos = cpu.threads.getThreadCpuTime(id);
      if (nanos >= 0) {
        cpu.before.put(id, nanos);
      }
    }
    return cpu;
  }

  /** Prints the CPU taken since {@link #start} by group, largest first, with {@code processNanos}' rest. */
  void print(String contender, long processNanos) {
    Map<String, Long> byGroup = new TreeMap<>();
    long javaThreads = 0;
    for (long id : threads.getAllThreadIds()) {
      long nanos = threads.getThreadCpuTime(id);
      ThreadInfo info = threads.getThreadInfo(id);
      if (nanos < 0 || info == null) {
        continue;
      }
      long taken = nanos - before.getOrDefault(id, 0L);
      if (taken <= 0) {
        continue;
      }
      byGroup.merge(NUMBERED.matcher(info.getThreadName()).replaceAll(""), taken, Long::sum);
      javaThreads += taken;
    }
    StringBuilder line = new StringBuilder("  " + contender + ": CPU by thread group, ms:");
    byGroup.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .filter(group -> group.getValue() >= 1_000_000)
        .forEach(group -> line.append(' ').append(group.getKey()).append(' ').append(group.getValue() / 1_000_000).append(','));
    line.append(" (JIT, GC, ended threads) ").append(Math.max(0, processNanos - javaThreads) / 1_000_000);
    System.out.println(line);
  }
}
