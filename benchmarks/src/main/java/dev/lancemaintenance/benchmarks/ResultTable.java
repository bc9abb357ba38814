package dev.lancemaintenance.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** The one table the runner prints: a row per contender, medians over its timed runs. */
final class ResultTable {
  private final String title;
  private final Map<String, List<RunSample>> samples = new LinkedHashMap<>();

  ResultTable(String title) {
    this.title = title;
  }

  /** The timed runs of {@code contender}, in order. */
  List<RunSample> samples(String contender) {
    return samples.getOrDefault(contender, List.of());
  }

  void add(String contender, RunSample sample) {
    samples.computeIfAbsent(contender, name -> new ArrayList<>()).add(sample);
  }

  void print(PrintStream out) {
    out.println();
    out.println(title + ", load average at the end " + LoadAverage.now());
    String header = String.format("%-14s %9s %17s %7s %12s %12s %10s %10s %9s %10s %5s",
        "contender", "median ms", "min-max ms", "x sdk", "meta read", "proc read", "peak heap", "peak rss",
        "deleted", "files/s", "same");
    out.println(header);
    out.println("-".repeat(header.length()));
    // The SDK's row is the baseline, in this JVM ("sdk") or in a child ("sdk@512m"); a cold process
    // ("cli-cold") is compared with the SDK's cold process ("sdk-cold").
    OptionalLong sdk = samples.keySet().stream()
        .filter(name -> name.equals("sdk") || name.startsWith("sdk@"))
        .findFirst()
        .map(this::medianOf)
        .orElse(OptionalLong.empty());
    OptionalLong sdkCold = medianOf("sdk-cold");
    samples.forEach((name, runs) -> out.println(row(name, runs, name.endsWith("-cold") ? sdkCold : sdk)));
  }

  private OptionalLong medianOf(String name) {
    List<RunSample> runs = samples.get(name);
    return runs == null ? OptionalLong.empty() : OptionalLong.of(median(runs.stream().mapToLong(RunSample::wallNanos).toArray()));
  }

  private static String row(String name, List<RunSample> runs, OptionalLong sdkMedian) {
    long median = median(runs.stream().mapToLong(RunSample::wallNanos).toArray());
    long min = runs.stream().mapToLong(RunSample::wallNanos).min().orElse(0);
    long max = runs.stream().mapToLong(RunSample::wallNanos).max().orElse(0);
    RunSample typical = runs.get(runs.size() / 2);
    String ratio = sdkMedian.isPresent() && sdkMedian.getAsLong() > 0
        ? String.format("%.3f", (double) median / sdkMedian.getAsLong()) : "-";
    long deleted = typical.filesDeleted();
    return String.format("%-14s %9d %17s %7s %12s %12s %10s %10s %9d %10.0f %5s",
        name, millis(median), millis(min) + "-" + millis(max), ratio,
        typical.metadataBytes() < 0 ? "-" : mb(typical.metadataBytes()),
        typical.processReadBytes().isPresent() ? mb(typical.processReadBytes().getAsLong()) : "-",
        mb(runs.stream().mapToLong(RunSample::peakHeapBytes).max().orElse(0)),
        typical.peakRssBytes().isPresent() ? mb(typical.peakRssBytes().getAsLong()) : "-",
        deleted, deleted / Math.max(1e-9, median / 1e9),
        runs.stream().allMatch(RunSample::sameAsSdk) ? "yes" : "NO");
  }

  private static long median(long[] values) {
    long[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  private static long millis(long nanos) {
    return nanos / 1_000_000;
  }

  private static String mb(long bytes) {
    return String.format("%.1f MB", bytes / 1e6);
  }
}
