package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The object-store case: the SDK and our local engine clean the {@code large} shape on an
 * S3-compatible server on 127.0.0.1 (s3proxy, in this JVM). Each run gets a table the SDK writes
 * there commit by commit (appends of two rows, then a compaction): uploading a generated table would
 * reset every object's mtime, which changes what cleanup may delete.
 *
 * <p>Both contenders clean through a {@link LatencyProxy} in front of the server that adds
 * {@code --latency-ms} (20 by default) to every HTTP request: the SDK's native client and our s3a
 * client are pointed at the proxy's endpoint, so both pay the same per-request latency. Tables are
 * written and counted directly against the server. Each run prints the requests it made through the
 * proxy. Options: {@code --versions N} (appends, default 200), {@code --repeats N} (3),
 * {@code --latency-ms N} (20), {@code --engines sdk,local,local-incremental,local-incremental-auto}, {@code
 * --expire-fraction F} (1: every version but the latest goes; 0.01: the oldest 1%, the daily run
 * that {@code local-incremental} makes from the ledger left over all but the newest 1%).
 *
 * <p>{@code --shape huge-steady [--versions N] [--work DIR] [--expect-deletes N]}: instead, a table of
 * the local runner's generator ({@link BenchmarkRunner#generatedTable}, reused when present) uploaded
 * for every run ({@link UploadedTable}: straight into the store, the day's objects after the record of
 * the day before), on a server whose listings answer from a sorted index ({@link
 * S3ProxyServer#startIndexed()}: the plain in-memory store lists in time quadratic in a directory's
 * keys). The shape's cleanup policy and new versions apply; {@code --expire-fraction} does not. Every
 * run must leave the keys the first run left, and delete {@code --expect-deletes} files when given
 * (the local runner's SDK reference on the same table); the SDK is not a contender here (over HTTP
 * it would take hours on 100,000 versions).
 */
public final class ObjectStoreRunner {
  private static final String BUCKET = "bench";

  private ObjectStoreRunner() {}

  public static void main(String[] args) {
    if (List.of(args).contains("--shape")) {
      UploadedTableRuns.main(args);
      return;
    }
    int versions = 200;
    int repeats = 3;
    long latencyMs = 20;
    double expireFraction = 1.0;
    List<String> engines = List.of("sdk", "local");
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--versions" -> versions = Integer.parseInt(args[i + 1]);
        case "--repeats" -> repeats = Integer.parseInt(args[i + 1]);
        case "--latency-ms" -> latencyMs = Long.parseLong(args[i + 1]);
        case "--engines" -> engines = List.of(args[i + 1].split(","));
        case "--expire-fraction" -> expireFraction = Double.parseDouble(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    // New since the ledger of the day before, for local-incremental: as many as expire.
    int newVersions = (int) Math.max(1, Math.round(expireFraction * versions));
    try (S3ProxyServer server = S3ProxyServer.start();
        LatencyProxy proxy = LatencyProxy.start(server.endpoint(), Duration.ofMillis(latencyMs))) {
      server.createBucket(BUCKET);
      ResultTable results = new ResultTable(String.format(
          "s3proxy on 127.0.0.1 behind a +%d ms per request proxy (both contenders), %d SDK appends + compaction,"
              + " expiring %s of the versions, %d runs each after 1 warm-up", latencyMs, versions, expireFraction, repeats));
      List<Contender> contenders = engines.stream().map(name -> contender(name, newVersions)).toList();
      int run = 0;
      // Round by round, every contender once per round, as the local runner does: the load moves.
      for (int i = 0; i <= repeats; i++) {
        for (Contender contender : contenders) {
          WrittenTable written = writeTable(server, "t" + run++, versions);
          Table table = written.table();
          long latest = written.latestVersion();
          long beforeVersion = expireFraction >= 1 ? latest : Math.max(2, 1 + Math.round(expireFraction * latest));
          long before = count(table);
          contender.prepare(table);
          long requestsBefore = proxy.requests();
          RunSample measured = Measure.run(contender, behind(proxy, table), beforeVersion);
          long requests = proxy.requests() - requestsBefore;
          long after = count(table);
          RunSample sample = new RunSample(measured.wallNanos(), before - after, measured.metadataBytes(),
              measured.processReadBytes(), measured.peakHeapBytes(), measured.peakRssBytes(),
              // Every copy is written afresh (other random names), so compare counts.
              before - after == expectedDeletes(versions, latest, beforeVersion));
          System.out.printf("  %s run %d: %d ms, %d files deleted, %d requests%s%n", contender.name(), i + 1,
              sample.wallNanos() / 1_000_000, sample.filesDeleted(), requests, i == 0 ? " (warm-up)" : "");
          if (i > 0) {
            results.add(contender.name(), sample);
          }
        }
      }
      results.print(System.out);
    }
    System.exit(0);
  }

  /**
   * Files a correct cleanup removes: below the latest, every version's manifest and transaction
   * and, since only the compaction drops the appends' data files, those only when every version
   * before it goes (expire all: all but the latest version's manifest, transaction and data file).
   */
  private static long expectedDeletes(int appends, long latest, long beforeVersion) {
    return beforeVersion == latest ? 2 * (latest - 1) + appends : 2 * (beforeVersion - 1);
  }

  static Contender contender(String name, int newVersions) {
    return switch (name) {
      case "sdk" -> new SdkCleanup();
      case "local" -> new LocalEngineCleanup();
      // The daily run: the ledger of the run before the newest versions is on the table.
      case "local-incremental" -> new LocalEngineCleanup(newVersions);
      // The same with listing => 'auto', as -Dbenchmark.listing=auto makes local-incremental.
      case "local-incremental-auto" -> new LocalEngineCleanup(newVersions, true);
      default -> throw new IllegalArgumentException(
          "unknown engine " + name + " (sdk, local, local-incremental, local-incremental-auto)");
    };
  }

  /** Writes a fresh {@code large}-shaped table with the SDK itself, so object mtimes are real. */
  private static WrittenTable writeTable(S3ProxyServer server, String key, int versions) {
    String lanceUri = S3ProxyServer.lanceUri(BUCKET, key);
    LanceTableFixture fixture = LanceTableFixture.createAt(lanceUri,
        FixtureOptions.defaults().withStorageOptions(server.lanceStorageOptions()));
    for (int i = 0; i < versions; i++) {
      fixture.append(2);
    }
    long latest = fixture.compact();
    return new WrittenTable(new Table(Optional.empty(), lanceUri, server.lanceStorageOptions(),
        S3ProxyServer.s3aUri(BUCKET, key), server.hadoopSettings()), latest);
  }

  /** The same table, reached through {@code proxy} by both the SDK and s3a. */
  static Table behind(LatencyProxy proxy, Table table) {
    String endpoint = proxy.endpoint().toString();
    Map<String, String> lance = new LinkedHashMap<>(table.lanceOptions());
    lance.put("aws_endpoint", endpoint);
    Map<String, String> hadoop = new LinkedHashMap<>(table.hadoopOptions());
    hadoop.put("fs.s3a.endpoint", endpoint);
    return new Table(table.localRoot(), table.lanceUri(), lance, table.hadoopUri(), hadoop);
  }

  private record WrittenTable(Table table, long latestVersion) {}

  private static long count(Table table) {
    return files(table).size();
  }

  /** The table's files (not our lease's), by path under the table. */
  static Set<String> files(Table table) {
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.hadoopUri()), conf)) {
      Set<String> files = new HashSet<>();
      for (Iterator<FileEntry> it = storage.listFiles("", true); it.hasNext(); ) {
        String path = it.next().path();
        // Our own lease directory is not Lance's: only the table's files.
        if (!TableLease.isLeaseFile(path)) {
          files.add(path);
        }
      }
      return files;
    }
  }

}
