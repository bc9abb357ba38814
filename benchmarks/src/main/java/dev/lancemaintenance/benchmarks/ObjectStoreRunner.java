package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The object-store case: the SDK and our local engine clean the {@code large} shape on an
 * S3-compatible server on 127.0.0.1 (s3proxy, in this JVM). Each run gets a table the SDK writes
 * there commit by commit (appends of two rows, then a compaction): uploading a generated table would
 * reset every object's mtime, which changes what cleanup may delete.
 *
 * <p>Our engine reaches the server through a storage wrapper that adds {@code --latency-ms} (20 by
 * default) to every request; the SDK's native client cannot be wrapped and runs at the loopback's
 * ~0 ms, which favours the SDK. Options: {@code --versions N} (appends, default 200),
 * {@code --repeats N} (3), {@code --latency-ms N} (20).
 */
public final class ObjectStoreRunner {
  private static final String BUCKET = "bench";

  private ObjectStoreRunner() {}

  public static void main(String[] args) {
    int versions = 200;
    int repeats = 3;
    long latencyMs = 20;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--versions" -> versions = Integer.parseInt(args[i + 1]);
        case "--repeats" -> repeats = Integer.parseInt(args[i + 1]);
        case "--latency-ms" -> latencyMs = Long.parseLong(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    try (S3ProxyServer server = S3ProxyServer.start()) {
      server.createBucket(BUCKET);
      ResultTable results = new ResultTable(String.format(
          "s3proxy on 127.0.0.1, %d SDK appends + compaction, %d runs each after 1 warm-up, +%d ms per request for ours",
          versions, repeats, latencyMs));
      List<Contender> contenders = List.of(new SdkCleanup(), new LocalEngineCleanup(Duration.ofMillis(latencyMs)));
      int run = 0;
      for (Contender contender : contenders) {
        for (int i = 0; i <= repeats; i++) {
          WrittenTable written = writeTable(server, "t" + run++, versions);
          Table table = written.table();
          long latest = written.latestVersion();
          long before = count(table);
          RunSample measured = Measure.run(contender, table, latest);
          long after = count(table);
          RunSample sample = new RunSample(measured.wallNanos(), before - after, measured.metadataBytes(),
              measured.processReadBytes(), measured.peakHeapBytes(), measured.peakRssBytes(),
              // Every copy is written afresh (other random names), so compare counts: the files of
              // every version but the latest go, i.e. all but its manifest, transaction, data file.
              after == before - (2 * (latest - 1) + versions));
          System.out.printf("  %s run %d: %d ms, %d files deleted%s%n", contender.name(), i + 1,
              sample.wallNanos() / 1_000_000, sample.filesDeleted(), i == 0 ? " (warm-up)" : "");
          if (i > 0) {
            results.add(contender.name(), sample);
          }
        }
      }
      results.print(System.out);
    }
    System.exit(0);
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

  private record WrittenTable(Table table, long latestVersion) {}

  private static long count(Table table) {
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.hadoopUri()), conf)) {
      long files = 0;
      for (Iterator<FileEntry> it = storage.listFiles("", true); it.hasNext(); it.next()) {
        files++;
      }
      return files;
    }
  }

}
