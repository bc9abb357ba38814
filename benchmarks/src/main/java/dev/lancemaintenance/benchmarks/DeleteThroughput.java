package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * Delete throughput of each {@link dev.lancemaintenance.storage.DeleteRoute} of {@link
 * HadoopTableStorage}, measured as the sweep uses it: pages of the store's batch size, {@code
 * max_concurrent_deletes} (8) pages at a time. Run on whichever Hadoop client is on the class path
 * (the 3.4 client: bulk deletes, and parallel single deletes with {@code
 * fs.s3a.multiobjectdelete.enable=false}; the 3.3 client: parallel single deletes), see
 * docs/benchmarks.md for the command lines.
 *
 * <p>Arguments: {@code s3|local [files] [rounds] [latencyMs] [key=value s3a settings...]}. The S3
 * store is s3proxy in this JVM behind {@link LatencyProxy} (every request waits {@code latencyMs}),
 * its objects put straight into the blob store before each round so that only deletes go through
 * s3a.
 */
public final class DeleteThroughput {
  private static final String BUCKET = "delete-throughput";
  /** The sweep's default {@code max_concurrent_deletes}. */
  private static final int CONCURRENT_PAGES = 8;

  private DeleteThroughput() {}

  public static void main(String[] args) throws Exception {
    String store = args.length > 0 ? args[0] : "s3";
    int files = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    long latencyMs = args.length > 3 ? Long.parseLong(args[3]) : 20;
    Map<String, String> extra = new LinkedHashMap<>();
    Arrays.stream(args).skip(4).map(a -> a.split("=", 2)).forEach(kv -> extra.put(kv[0], kv[1]));
    System.out.printf("client Hadoop %s, store %s, %d files, %d rounds, load %s%n",
        org.apache.hadoop.util.VersionInfo.getVersion(), store, files, rounds, LoadAverage.now());
    if (store.equals("local")) {
      runLocal(files, rounds);
    } else {
      runS3(files, rounds, latencyMs, extra);
    }
    System.out.printf("load after %s%n", LoadAverage.now());
  }

  private static void runS3(int files, int rounds, long latencyMs, Map<String, String> extra) throws Exception {
    try (S3ProxyServer server = S3ProxyServer.start();
        LatencyProxy proxy = LatencyProxy.start(server.endpoint(), Duration.ofMillis(latencyMs))) {
      server.createBucket(BUCKET);
      Map<String, String> settings = new LinkedHashMap<>(server.hadoopSettings());
      settings.put("fs.s3a.endpoint", proxy.endpoint().toString());
      settings.putAll(extra);
      BlobStore blobs = server.blobStore();
      for (int round = 0; round <= rounds; round++) {
        String table = "t" + round;
        List<String> paths = names(files);
        paths.forEach(p -> blobs.putBlob(BUCKET, blobs.blobBuilder(table + "/" + p).payload(new byte[16]).build()));
        try (HadoopTableStorage storage = new HadoopTableStorage(
            TableLocation.of(S3ProxyServer.s3aUri(BUCKET, table)), StorageConf.of(settings))) {
          long requestsBefore = proxy.requests();
          report(round, storage, paths, () -> proxy.requests() - requestsBefore);
        }
        // s3a 3.3 leaves a directory marker ("t0/data/0/") where it deleted a directory's last file.
        long left = blobs.list(BUCKET, ListContainerOptions.Builder.prefix(table + "/").recursive()).stream()
            .filter(o -> !o.getName().endsWith("/"))
            .count();
        if (left > 0) {
          throw new IllegalStateException(left + " objects left under " + table);
        }
      }
    }
  }

  private static void runLocal(int files, int rounds) throws Exception {
    Path work = Files.createTempDirectory("delete-throughput");
    for (int round = 0; round <= rounds; round++) {
      Path table = work.resolve("t" + round);
      List<String> paths = names(files);
      for (String p : paths) {
        Path file = table.resolve(p);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[16]);
      }
      try (HadoopTableStorage storage =
          new HadoopTableStorage(TableLocation.of(table.toUri().toString()), StorageConf.defaults())) {
        report(round, storage, paths, () -> -1);
      }
    }
  }

  private static List<String> names(int files) {
    return IntStream.range(0, files).mapToObj(i -> "data/" + (i % 16) + "/f" + i + ".lance").toList();
  }

  /** Round 0 warms up (class loading, JIT, connections) and is printed but not counted. */
  private static void report(int round, HadoopTableStorage storage, List<String> paths,
      java.util.function.LongSupplier requests) throws Exception {
    int page = storage.maxDeleteBatchSize();
    long start = System.nanoTime();
    int failed = deleteInPages(storage, paths, page);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (failed > 0) {
      throw new IllegalStateException(failed + " deletes failed");
    }
    System.out.printf("%s route %s, page %d: %d files in %.2f s = %.0f files/s, %d requests%n",
        round == 0 ? "warm-up" : "round " + round, storage.deleteRoute(), page, paths.size(), seconds,
        paths.size() / seconds, requests.getAsLong());
  }

  private static int deleteInPages(HadoopTableStorage storage, List<String> paths, int page) throws Exception {
    ExecutorService sweepers = Executors.newFixedThreadPool(CONCURRENT_PAGES);
    try {
      List<Future<List<DeleteFailure>>> pages = new ArrayList<>();
      for (int from = 0; from < paths.size(); from += page) {
        List<String> batch = paths.subList(from, Math.min(paths.size(), from + page));
        pages.add(sweepers.submit(() -> storage.deleteBatch(batch)));
      }
      int failed = 0;
      for (Future<List<DeleteFailure>> done : pages) {
        failed += done.get().size();
      }
      return failed;
    } finally {
      sweepers.shutdown();
    }
  }
}
