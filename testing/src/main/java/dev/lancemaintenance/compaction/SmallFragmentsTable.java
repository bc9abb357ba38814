package dev.lancemaintenance.compaction;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableContent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.Fragment;
import org.lance.FragmentMetadata;
import org.lance.Ref;

/**
 * A table fed in small batches, the shape compaction is for: many appends of a few rows, deletes
 * that leave deletion files (and one that drops whole fragments), and a BTREE index that compaction
 * must remap. Written by the official SDK; each test compacts its own copy. Public for the
 * connectors' compaction tests (module testing).
 */
public final class SmallFragmentsTable {
  public static final int APPENDS = 60;
  public static final int ROWS_PER_APPEND = 4;

  /** Small enough to split the table into several tasks, so groups and retries have work. */
  public static final CompactionPolicy SEVERAL_TASKS =
      CompactionPolicy.builder().targetRowsPerFragment(40).maxConcurrentTasks(3).build();

  private SmallFragmentsTable() {}

  public static LanceTableFixture write(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir);
    for (int i = 0; i < APPENDS; i++) {
      table.append(ROWS_PER_APPEND);
    }
    table.deleteWhere("id % 5 = 1");
    table.createScalarIndex("id", ScalarIndexKind.BTREE);
    table.append(ROWS_PER_APPEND);
    table.deleteWhere("id >= " + LanceTableFixture.firstId(10) + " AND id < " + LanceTableFixture.firstId(12));
    return table;
  }

  /** Rows and checksum of the latest version, read in full through the SDK. */
  public static TableContent latestContent(LanceTableFixture table) {
    return ReadBack.read(table.root(), Ref.ofMain(table.latestVersion()));
  }

  /** Fragment ids of the latest version. */
  public static Set<Integer> fragmentIds(LanceTableFixture table) {
    Set<Integer> ids = new TreeSet<>();
    withLatest(table, dataset -> dataset.getFragments().forEach(f -> ids.add(f.getId())));
    return ids;
  }

  /** One line per fragment of the latest version: id, physical rows, deleted rows. */
  public static List<String> fragmentLayout(LanceTableFixture table) {
    List<String> layout = new ArrayList<>();
    withLatest(table, dataset -> {
      for (Fragment fragment : dataset.getFragments()) {
        FragmentMetadata meta = fragment.metadata();
        layout.add(meta.getId() + ": " + meta.getPhysicalRows() + " rows, " + meta.getNumDeletions() + " deleted");
      }
    });
    return layout;
  }

  /** Lance's single-process compaction, with the options our planner gives the SDK. */
  public static void sdkCompact(LanceTableFixture table, CompactionPolicy policy) {
    withLatest(table, dataset -> dataset.compact(LanceSdkCompaction.options(policy)));
  }

  /** Table-relative paths of the files the latest version references, read with our reader. */
  public static Set<String> referencedByLatest(LanceTableFixture table) {
    TableLocation location = TableLocation.of(table.uri());
    try (TableStorage storage = new HadoopTableStorage(location, StorageConf.defaults())) {
      ManifestLocation latest = VersionListing.latest(storage, DatasetRef.MAIN).orElseThrow();
      Set<String> paths = new TreeSet<>();
      for (FileReference reference : ManifestReader.read(storage, latest).references(location, DatasetRef.MAIN)) {
        paths.add(reference.path());
      }
      return paths;
    }
  }

  public static CompactionTable compactionTable(LanceTableFixture table) {
    return CompactionTable.of(TableLocation.of(table.uri()), Map.of());
  }

  private static void withLatest(LanceTableFixture table, Consumer<Dataset> body) {
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(table.uri(), allocator)) {
      body.accept(dataset);
    }
  }
}
