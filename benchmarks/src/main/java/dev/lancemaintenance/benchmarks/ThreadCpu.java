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
 * (docs/benchmarks.md, "Stop 37"). What no Java thread took (the JIT's and the collector's threads,
 * and what a thread that ended took after its last poll) is the rest of the process's CPU, as
 * {@code (JIT, GC, unseen)}.
 *
 * <p>Threads that end during the run (a storage's key-range and cleanup pools, the proxy's pumps
 * of a closed connection) are seen by a poll every {@value #POLL_MILLIS} ms while the run lasts,
 * up to their last poll; a thread is grouped by the name it had then (a pooled thread that ran
 * named tasks, as {@code DaemonThreads.beside}'s, mostly under its idle name). The poll's own
 * thread is left out; its CPU is in the rest.
 */
final class ThreadCpu {
  private static final Pattern NUMBERED = Pattern.compile("(-(pool)?t?\\d+)+$");
  private static final long POLL_MILLIS = 20;
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Map<Long, Long> before = new HashMap<>();
  /** The last CPU seen of every thread, and its name then: written by the poll, read after it stopped. */
  private final Map<Long, Long> seen = new HashMap<>();
  private final Map<Long, String> names = new HashMap<>();
  private final Thread poll;
  private volatile boolean running = true;

  private ThreadCpu() {
    poll = new Thread(() -> {
      while (running) {
        look();
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "benchmark-thread-cpu");
    poll.setDaemon(true);
  }

  /** The CPU of every live thread now, to compare with at {@link #print}. */
  static ThreadCpu start() {
    ThreadCpu cpu = new ThreadCpu();
    for (long id : cpu.threads.getAllThreadIds()) {
      long nanos = cpu.threads.getThreadCpuTime(id);
      if (nanos >= 0) {
        cpu.before.put(id, nanos);
      }
    }
    cpu.poll.start();
    return cpu;
  }

  private void look() {
    for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long nanos = threads.getThreadCpuTime(info.getThreadId());
      if (nanos >= 0) {
        seen.put(info.getThreadId(), nanos);
        names.put(info.getThreadId(), info.getThreadName());
      }
    }
  }

  /** Prints the CPU taken since {@link #start} by group, largest first, with {@code processNanos}' rest. */
  void print(String contender, long processNanos) {
    running = false;
    try {
      poll.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    look();
    seen.remove(poll.getId());
    Map<String, Long> byGroup = new TreeMap<>();
    long javaThreads = 0;
    for (Map.Entry<Long, Long> thread : seen.entrySet()) {
      long taken = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
      if (taken <= 0) {
        continue;
      }
      byGroup.merge(NUMBERED.matcher(names.get(thread.getKey())).replaceAll(""), taken, Long::sum);
      javaThreads += taken;
    }
    StringBuilder line = new StringBuilder("  " + contender + ": CPU by thread group, ms:");
    byGroup.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .filter(group -> group.getValue() >= 1_000_000)
        .forEach(group -> line.append(' ').append(group.getKey()).append(' ').append(group.getValue() / 1_000_000).append(','));
    line.append(" (JIT, GC, unseen) ").append(Math.max(0, processNanos - javaThreads) / 1_000_000);
    System.out.println(line);
  }
}
