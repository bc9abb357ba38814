package dev.lancemaintenance.benchmarks.generate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Dataset;
import org.lance.cleanup.CleanupPolicy;
import org.lance.cleanup.RemovalStats;

/**
 * The official SDK accepts a generated table: it opens the latest and old versions, counts their
 * rows, and cleans a copy. One toy table (200 versions) with every feature of the big shapes:
 * periodic compaction with retention, deletion files, index rebuilds, tags and a final compaction.
 */
class TableGeneratorIT {
  /** Compaction every 10 (at most 3 kept), a delete every 7, a new index every 33, 5 tail appends. */
  static final TableShape TOY =
      new TableShape("toy", 200, 2, 10, 3, 7, 33, TableShape.Finish.COMPACTED, 5, 2, 1.0);

  @TempDir static Path dir;
  static GeneratedTable table;

  @BeforeAll
  static void generate() {
    SeedTable seed = SeedTable.write(dir.resolve("toy.seed"));
    table = TableGenerator.generate(seed, TOY, dir.resolve("toy"), TableFiles.DataMode.LINK, Clock.systemUTC());
  }

  @Test
  void sdkOpensTheLatestVersionWithItsRows() {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(uri(table.root()), allocator)) {
      assertThat(dataset.latestVersion()).isEqualTo(TOY.latestVersion()).isEqualTo(207);
      assertThat(dataset.version()).isEqualTo(207);
      // Five tail appends of two fragments of two rows after a compaction into one fragment.
      assertThat(dataset.getFragments()).hasSize(11);
      assertThat(dataset.countRows()).isEqualTo(rowsOfVersion(table.root(), 207));
      assertThat(dataset.listVersions()).hasSize(207);
      assertThat(dataset.tags().list()).hasSize(2);
    }
  }

  @Test
  void sdkReadsASampleOfOldVersions() {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(uri(table.root()), allocator)) {
      for (long version : List.of(1L, 2L, 7L, 10L, 41L, 99L, 150L, 201L)) {
        try (Dataset old = dataset.checkoutVersion(version)) {
          assertThat(old.countRows()).as("rows of v%d", version).isEqualTo(rowsOfVersion(table.root(), version));
          assertThat(scannedRows(old)).as("scanned rows of v%d", version).isEqualTo(old.countRows());
        }
      }
    }
  }

  @Test
  void sdkCleansACopyDownToTheLatestVersion() throws IOException {
    Path copy = dir.resolve("cleaned");
    CopyTree.copy(table.root(), copy);
    RemovalStats stats;
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(uri(copy), allocator)) {
      stats = dataset.cleanupWithPolicy(
          CleanupPolicy.builder().withBeforeVersion(TOY.cleanupBeforeVersion()).build());
    }
    // The two tagged versions stay (error_if_tagged is on and they are the newest two), the rest go.
    assertThat(TOY.cleanupBeforeVersion()).isEqualTo(206);
    assertThat(stats.getOldVersions()).isEqualTo(205);
    assertThat(stats.getTransactionFilesRemoved()).isEqualTo(205);
    assertThat(stats.getDeletionFilesRemoved()).isPositive();
    assertThat(stats.getIndexFilesRemoved()).isPositive();
    assertThat(stats.getDataFilesRemoved()).isPositive();
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(uri(copy), allocator)) {
      assertThat(dataset.listVersions()).hasSize(2);
      assertThat(scannedRows(dataset)).isEqualTo(rowsOfVersion(table.root(), TOY.latestVersion()));
    }
  }

  @Test
  void ourReaderDecodesEveryManifest() {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(uri(table.root())), StorageConf.defaults())) {
      List<Long> versions = VersionListing.list(storage, DatasetRef.MAIN).stream().map(l -> l.version()).sorted().toList();
      assertThat(versions).hasSize(207).startsWith(1L).endsWith(207L);
      Manifest latest = ManifestReader.read(storage, VersionListing.list(storage, DatasetRef.MAIN).stream()
          .filter(l -> l.version() == 207).findFirst().orElseThrow());
      assertThat(latest.fragments()).hasSize(11);
      assertThat(latest.transaction()).isPresent();
    }
  }

  @Test
  void writesTheCountedFilesAndManifestBytes() throws IOException {
    try (Stream<Path> walk = Files.walk(table.root())) {
      assertThat(walk.filter(Files::isRegularFile).count()).isEqualTo(table.files());
    }
    try (Stream<Path> manifests = Files.list(table.root().resolve("_versions"))) {
      long bytes = manifests.filter(p -> p.toString().endsWith(".manifest")).mapToLong(CopyTree::size).sum();
      assertThat(bytes).isEqualTo(table.manifestBytes());
    }
  }

  private static long scannedRows(Dataset dataset) {
    return dataset.countRows("id >= 0");
  }

  /** Live rows of a version, from the manifest as our reader sees it. */
  private static long rowsOfVersion(Path root, long version) {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(uri(root)), StorageConf.defaults())) {
      Manifest manifest = ManifestReader.read(storage, VersionListing.list(storage, DatasetRef.MAIN).stream()
          .filter(l -> l.version() == version).findFirst().orElseThrow());
      return manifest.fragments().stream()
          .mapToLong(f -> f.physicalRows() - f.deletionFile().map(d -> d.numDeletedRows()).orElse(0L))
          .sum();
    }
  }

  private static String uri(Path path) {
    return path.toAbsolutePath().normalize().toString();
  }
}
