package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.jclouds.blobstore.BlobStore;

/**
 * How long a large directory takes to list on an object store, as the list stage lists it ({@link
 * HadoopTableStorage#listFiles}, key ranges side by side on s3a with a Hadoop 3.4 client) and as
 * s3a's own {@code listFiles(dir, true)} walks it (each page asked for with the last one's token):
 * the wall time, the requests, and so how many of them waited for one another. A table of many
 * versions on S3 has directories of tens of thousands to millions of keys ({@code data/}, {@code
 * _versions/}, {@code _transactions/}); the store answers at most 1,000 keys a request.
 *
 * <p>Arguments: {@code [keys] [rounds] [latencyMs] [key=value s3a settings...]}. The store is
 * s3proxy in this JVM behind {@link LatencyProxy} (every request waits {@code latencyMs}); the
 * directory's keys, named as Lance names data files (24 binary digits, then 26 hex, spread evenly),
 * are put straight into the blob store once. Round 0 warms up and is printed but not counted.
 */
public final class ListingThroughput {
  private static final String BUCKET = "listing-throughput";
  private static final String TABLE = "t.lance";

  private ListingThroughput() {}

  public static void main(String[] args) throws Exception {
    int keys = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    long latencyMs = args.length > 2 ? Long.parseLong(args[2]) : 20;
    Map<String, String> extra = new LinkedHashMap<>();
    Arrays.stream(args).skip(3).map(a -> a.split("=", 2)).forEach(kv -> extra.put(kv[0], kv[1]));
    System.out.printf("client Hadoop %s, %d keys in data/, %d rounds, +%d ms a request, load %s%n",
        org.apache.hadoop.util.VersionInfo.getVersion(), keys, rounds, latencyMs, LoadAverage.now());
    try (S3ProxyServer server = S3ProxyServer.start();
        LatencyProxy proxy = LatencyProxy.start(server.endpoint(), Duration.ofMillis(latencyMs))) {
      server.createBucket(BUCKET);
      BlobStore blobs = server.blobStore();
      Random random = new Random(42);
      for (int i = 0; i < keys; i++) {
        String name = dataName(random);
        blobs.putBlob(BUCKET, blobs.blobBuilder(TABLE + "/data/" + name).payload(new byte[16]).build());
      }
      Map<String, String> settings = new LinkedHashMap<>(server.hadoopSettings());
      settings.put("fs.s3a.endpoint", proxy.endpoint().toString());
      settings.putAll(extra);
      String table = S3ProxyServer.s3aUri(BUCKET, TABLE);
      StorageConf conf = StorageConf.of(settings);
      try (HadoopTableStorage storage = new HadoopTableStorage(TableLocation.of(table), conf);
          FileSystem fs = FileSystem.newInstance(URI.create(table), conf.toConfiguration())) {
        Path data = new Path(table + "/data");
        for (int round = 0; round <= rounds; round++) {
          String label = round == 0 ? "warm-up" : "round " + round;
          long requests = proxy.requests();
          long start = System.nanoTime();
          long listed = count(storage.listFiles("data", true));
          report(label, "list stage (HadoopTableStorage)", listed, start, proxy.requests() - requests, latencyMs);
          requests = proxy.requests();
          start = System.nanoTime();
          long walked = count(fs.listFiles(data, true));
          report(label, "s3a listFiles(dir, true)", walked, start, proxy.requests() - requests, latencyMs);
          if (listed != keys || walked != keys) {
            throw new IllegalStateException("listed " + listed + " and walked " + walked + " of " + keys + " keys");
          }
        }
      }
    }
    System.out.printf("load after %s%n", LoadAverage.now());
  }

  private static String dataName(Random random) {
    String bits = Integer.toBinaryString(random.nextInt(1 << 24) | (1 << 24)).substring(1);
    StringBuilder hex = new StringBuilder(bits);
    for (int i = 0; i < 26; i++) {
      hex.append(Character.forDigit(random.nextInt(16), 16));
    }
    return hex.append(".lance").toString();
  }

  private static long count(Iterator<FileEntry> files) {
    long n = 0;
    for (; files.hasNext(); files.next()) {
      n++;
    }
    return n;
  }

  private static long count(RemoteIterator<?> files) throws IOException {
    long n = 0;
    for (; files.hasNext(); files.next()) {
      n++;
    }
    return n;
  }

  private static void report(String round, String how, long listed, long startNanos, long requests, long latencyMs) {
    long millis = (System.nanoTime() - startNanos) / 1_000_000L;
    // The wall time in added round trips: an upper bound of the requests that waited for one another.
    System.out.printf("%s %-32s %,d keys in %,d ms (%d x the added %d ms), %d requests%n",
        round, how, listed, millis, latencyMs > 0 ? millis / latencyMs : 0, latencyMs, requests);
  }
}
