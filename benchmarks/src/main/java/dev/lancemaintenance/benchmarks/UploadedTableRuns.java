package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.benchmarks.generate.TableShape;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code bin/benchmark s3 --shape NAME}: the object-store runner on a generated table, uploaded afresh
 * for every run (see {@link ObjectStoreRunner} for the options and {@link UploadedTable} for how).
 * Options besides the shape's: {@code --versions N}, {@code --work DIR}, {@code --engines
 * local,local-incremental,local-incremental-auto} (the first two), {@code --repeats N} (1), {@code --warmups N} (1), {@code --latency-ms N}
 * (20), {@code --expect-deletes N}.
 */
final class UploadedTableRuns {
  private UploadedTableRuns() {}

  static void main(String[] args) {
    TableShape shape = null;
    Integer versions = null;
    Path work = Path.of("/tmp/lance-benchmarks");
    List<String> engines = List.of("local", "local-incremental");
    int repeats = 1;
    int warmups = 1;
    long latencyMs = 20;
    OptionalLong expectDeletes = OptionalLong.empty();
    for (int i = 0; i + 1 < args.length; i += 2) {
      String value = args[i + 1];
      switch (args[i]) {
        case "--shape" -> shape = TableShape.named(value);
        case "--versions" -> versions = Integer.parseInt(value);
        case "--work" -> work = Path.of(value).toAbsolutePath().normalize();
        case "--engines" -> engines = List.of(value.split(","));
        case "--repeats" -> repeats = Integer.parseInt(value);
        case "--warmups" -> warmups = Integer.parseInt(value);
        case "--latency-ms" -> latencyMs = Long.parseLong(value);
        case "--expect-deletes" -> expectDeletes = OptionalLong.of(Long.parseLong(value));
        default -> throw new IllegalArgumentException("unknown option " + args[i] + " with --shape (see ObjectStoreRunner)");
      }
    }
    if (versions != null) {
      shape = shape.withVersions(versions);
    }
    if (engines.contains("sdk")) {
      throw new IllegalArgumentException("the SDK cleans an uploaded table over HTTP for hours; use --engines local,local-incremental");
    }
    Path source = BenchmarkRunner.generatedTable(shape, work);
    long beforeVersion = shape.cleanupBeforeVersion();
    int newVersions = shape.tailAppends();
    try (S3ProxyServer server = S3ProxyServer.startIndexed();
        LatencyProxy proxy = LatencyProxy.start(server.endpoint(), Duration.ofMillis(latencyMs))) {
      ResultTable results = new ResultTable(String.format(
          "s3proxy (indexed listings) on 127.0.0.1 behind a +%d ms per request proxy, %s uploaded, before_version %d,"
              + " %d new versions since the ledger, %d runs each after %d warm-up",
          latencyMs, source, beforeVersion, newVersions, repeats, warmups));
      List<Contender> contenders = engines.stream().map(name -> ObjectStoreRunner.contender(name, newVersions)).toList();
      Optional<Set<String>> firstLeft = Optional.empty();
      int run = 0;
      // Round by round, every contender once per round, as the local runner does: the load moves.
      for (int i = 0; i < warmups + repeats; i++) {
        for (Contender contender : contenders) {
          // Bucket names have at least three characters.
          String bucket = "run-" + run++;
          server.createBucket(bucket);
          Table table = new UploadedTable(server, bucket, source, newVersions).upload("table", contender::prepare);
          long before = ObjectStoreRunner.files(table).size();
          long requestsBefore = proxy.requests();
          System.out.printf("  %s run %d: starting, %,d files, load %s%n", contender.name(), i + 1, before, LoadAverage.now());
          RunSample measured = Measure.run(contender, ObjectStoreRunner.behind(proxy, table), beforeVersion);
          long requests = proxy.requests() - requestsBefore;
          Set<String> left = ObjectStoreRunner.files(table);
          if (firstLeft.isEmpty()) {
            firstLeft = Optional.of(left);
          }
          long deleted = before - left.size();
          boolean same = left.equals(firstLeft.get()) && (expectDeletes.isEmpty() || expectDeletes.getAsLong() == deleted);
          RunSample sample = new RunSample(measured.wallNanos(), deleted, measured.metadataBytes(),
              measured.processReadBytes(), measured.peakHeapBytes(), measured.peakRssBytes(), same);
          System.out.printf("  %s run %d: %d ms, %,d files deleted, %d requests, same %s, load %s%s%n", contender.name(), i + 1,
              sample.wallNanos() / 1_000_000, deleted, requests, same, LoadAverage.now(), i < warmups ? " (warm-up)" : "");
          if (i >= warmups) {
            results.add(contender.name(), sample);
          }
          // 1.3 GB a table on 100,000 versions: one at a time in the heap. Not clearContainer: the
          // in-memory store clears page by page through its own quadratic listing.
          server.blobStore().deleteContainer(bucket);
        }
      }
      results.print(System.out);
    }
    System.exit(0);
  }
}
