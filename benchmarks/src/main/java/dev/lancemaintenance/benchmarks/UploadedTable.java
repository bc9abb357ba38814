package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.format.ManifestNaming;
import dev.lancemaintenance.testing.stores.S3ProxyServer;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.jclouds.blobstore.BlobStore;

/**
 * A table generated on local disk, put into the object store's in-memory blob store directly (no
 * HTTP) in the order a daily run meets it: first every object but the day's (the manifests and
 * transaction files of the newest {@code newVersions} versions, and the version hint), with the times the files have on
 * disk; then what the run of the day before left ({@link YesterdaysRun}, through the caller); then,
 * after a pause longer than the store's one-second time resolution (the benchmark's daily run takes
 * no margin for a {@code PUT} in flight, {@link LocalEngineCleanup}), the day's objects, stamped as
 * they are written, so after the record that run left, as on a real table.
 *
 * <p>The store would stamp every object with the time of the upload; the first wave gets its files'
 * times back ({@link S3ProxyServer#backdate}), because cleanup never takes an object newer than the
 * earliest retained version's commit time: with upload times a run would delete the expired
 * manifests only, not their data and transaction files. Versions' commit times are in the
 * manifests, so the policy ({@code before_version}) sees the generated history unchanged; a
 * generated table holds no orphan, so no file is kept or taken for its age alone.
 */
record UploadedTable(S3ProxyServer server, String bucket, Path source, int newVersions) {
  private static final int THREADS = 4;

  /** Uploads the table under {@code key}; {@code yesterday} runs between the two waves. */
  Table upload(String key, Consumer<Table> yesterday) {
    List<Path> files = files();
    long lastSummarised = latestVersion(files) - newVersions;
    List<Path> earlier = new ArrayList<>();
    List<Path> today = new ArrayList<>();
    for (Path file : files) {
      (isTodays(file, lastSummarised) ? today : earlier).add(file);
    }
    Table table = new Table(Optional.empty(), S3ProxyServer.lanceUri(bucket, key), server.lanceStorageOptions(),
        S3ProxyServer.s3aUri(bucket, key), server.hadoopSettings());
    long start = System.nanoTime();
    put(key, earlier, true);
    System.out.printf("  uploaded %,d objects with their files' times in %d ms%n", earlier.size(), (System.nanoTime() - start) / 1_000_000);
    yesterday.accept(table);
    pause();
    put(key, today, false);
    System.out.printf("  uploaded the day's %,d objects%n", today.size());
    return table;
  }

  private List<Path> files() {
    try (Stream<Path> walk = Files.walk(source)) {
      return walk.filter(Files::isRegularFile).map(source::relativize).toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the table at " + source, e);
    }
  }

  private static long latestVersion(List<Path> files) {
    return files.stream().map(UploadedTable::manifestVersion).filter(OptionalLong::isPresent)
        .mapToLong(OptionalLong::getAsLong).max()
        .orElseThrow(() -> new IllegalArgumentException("no manifest in the table"));
  }

  private static OptionalLong manifestVersion(Path file) {
    String name = file.getFileName().toString();
    if (!file.startsWith("_versions") || file.getNameCount() != 2 || !name.endsWith(".manifest")) {
      return OptionalLong.empty();
    }
    return ManifestNaming.of(name).parseVersion(name);
  }

  /**
   * A manifest of a day's version, its transaction file ({@code <read version>-<uuid>.txn}), or the
   * version hint, which names the newest version and which every commit rewrites.
   */
  private static boolean isTodays(Path file, long lastSummarised) {
    if (file.equals(Path.of("_versions", "latest_version_hint.json"))) {
      return true;
    }
    OptionalLong manifest = manifestVersion(file);
    if (manifest.isPresent()) {
      return manifest.getAsLong() > lastSummarised;
    }
    String name = file.getFileName().toString();
    if (file.startsWith("_transactions") && file.getNameCount() == 2 && name.endsWith(".txn") && name.indexOf('-') > 0) {
      // A transaction names the version it read: it committed the next one.
      return Long.parseLong(name.substring(0, name.indexOf('-'))) + 1 > lastSummarised;
    }
    return false;
  }

  private void put(String key, List<Path> files, boolean keepTimes) {
    BlobStore store = server.blobStore();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> parts = new ArrayList<>();
      int slice = Math.max(1, (files.size() + THREADS - 1) / THREADS);
      for (int from = 0; from < files.size(); from += slice) {
        List<Path> part = files.subList(from, Math.min(files.size(), from + slice));
        parts.add(pool.submit(() -> part.forEach(file -> putOne(store, key, file, keepTimes))));
      }
      for (Future<?> part : parts) {
        part.get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot upload " + source + " to bucket " + bucket, e);
    } finally {
      pool.shutdownNow();
    }
  }

  private void putOne(BlobStore store, String key, Path file, boolean keepTimes) {
    String name = key + "/" + file.toString().replace(File.separatorChar, '/');
    try {
      Path local = source.resolve(file);
      byte[] content = Files.readAllBytes(local);
      store.putBlob(bucket, store.blobBuilder(name).payload(content).contentLength(content.length).build());
      if (keepTimes) {
        server.backdate(bucket, name, Files.getLastModifiedTime(local).toInstant());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file + " of " + source, e);
    }
  }

  /** Past the store's time resolution (whole seconds in listings), so the day's objects are newer. */
  private static void pause() {
    Instant until = Instant.now().plusMillis(1_100);
    while (Instant.now().isBefore(until)) {
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
