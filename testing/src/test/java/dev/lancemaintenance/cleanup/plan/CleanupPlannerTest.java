package dev.lancemaintenance.cleanup.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.ManifestSlice.SliceRole;
import dev.lancemaintenance.format.CorruptTableException;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestNaming;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan on real tables: slices are runs of consecutive versions no larger than asked, every
 * descendant branch's versions are marked as readers, only the cleaned dataset's tags count, and a
 * table whose listing cannot be trusted is refused before any manifest body is read.
 */
class CleanupPlannerTest {
  private static final CleanupPolicy POLICY = CleanupPolicy.builder().beforeVersion(3).build();
  private static final long NOW = 1_800_000_000_000L;

  @TempDir Path dir;

  @Test
  void slicesAreRunsOfConsecutiveVersionsOfAtMostTheSliceSize() {
    LanceTableFixture table = appends(5);

    CleanupPlan plan = plan(new CleanupPlanner(2), table, DatasetRef.MAIN);

    assertThat(plan.slices()).extracting(slice -> versions(slice)).containsExactly(List.of(1L, 2L), List.of(3L, 4L), List.of(5L));
    assertThat(plan.slices()).allMatch(s -> s.role() == SliceRole.TABLE_VERSIONS && s.dataset().isMain());
    assertThat(plan.tableManifestCount()).isEqualTo(5);
    assertThat(plan.facts().latestVersion()).isEqualTo(5);
    assertThat(plan.facts().nowMillis()).isEqualTo(NOW);
    assertThat(plan.facts().forkPoints()).isEmpty();
  }

  @Test
  void aMinimumSliceCountSplitsASmallHistoryIntoThatManyTasks() {
    LanceTableFixture table = appends(5);

    assertThat(plan(new CleanupPlanner(128, 3), table, DatasetRef.MAIN).slices()).extracting(s -> s.manifests().size()).containsExactly(2, 2, 1);
    assertThat(plan(new CleanupPlanner(128, 10), table, DatasetRef.MAIN).slices()).hasSize(5);
    assertThat(plan(new CleanupPlanner(), table, DatasetRef.MAIN).slices()).hasSize(1);
  }

  @Test
  void aSliceSizeOrCountBelowOneIsRefused() {
    assertThatThrownBy(() -> new CleanupPlanner(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new CleanupPlanner(8, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theListingsAreTheFiveManagedDirectoriesOfTheCleanedDataset() {
    LanceTableFixture table = appends(2);
    table.createBranch("b", 1).append(10);

    assertThat(plan(new CleanupPlanner(), table, DatasetRef.MAIN).listings())
        .filteredOn(task -> task.listed() == null)
        .containsExactlyInAnyOrder(listing("_transactions"), listing("_deletions"), listing("_indices"), listing("data"));
    assertThat(plan(new CleanupPlanner(), table, DatasetRef.branch("b")).listings()).extracting(ListingTask::dir)
        .containsExactlyInAnyOrder("tree/b/_versions", "tree/b/_transactions", "tree/b/_deletions", "tree/b/_indices", "tree/b/data");
  }

  @Test
  void theVersionsListingIsThePlansOwnWalkOfEveryFileAtAnyDepthAndIsNotWalkedAgain() {
    LanceTableFixture table = appends(3);
    java.time.Instant old = java.time.Instant.now().minus(java.time.Duration.ofDays(30));
    byte[] staged = "staged".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    // Candidates of the list stage (ManagedLayout: _versions/.tmp* at any depth), which the plan's
    // own listing of the directly held manifests must still show the list stage.
    table.plant("_versions/.tmp_staged.manifest", staged, old);
    table.plant("_versions/nested/.tmp_deeper", staged, old);
    List<String> walked = new ArrayList<>();

    CleanupPlan plan;
    List<String> handedOver = new ArrayList<>();
    try (TableStorage storage = new ListingRecorder(storage(table), walked)) {
      plan = new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW);
      walked.clear();
      ListingTask versions = plan.listings().stream().filter(task -> task.dir().equals("_versions")).findFirst().orElseThrow();
      dev.lancemaintenance.cleanup.stage.ListManagedFiles.files(storage, versions)
          .forEachRemaining(file -> handedOver.add(file.path()));
    }

    assertThat(handedOver).as("the list stage's files of _versions/: the plan's walk, every file at any depth")
        .contains("_versions/.tmp_staged.manifest", "_versions/nested/.tmp_deeper")
        .containsAll(plan.slices().stream().flatMap(s -> s.manifests().stream()).map(ManifestLocation::path).toList());
    assertThat(walked).as("listings the list stage made to find them").isEmpty();
    assertThat(plan.tableManifestCount()).as("only the manifests directly in _versions/ are versions").isEqualTo(3);
  }

  /** Records the directories listed through it. */
  private static final class ListingRecorder extends ForwardingTableStorage {
    private final List<String> listed;

    ListingRecorder(TableStorage delegate, List<String> listed) {
      super(delegate);
      this.listed = listed;
    }

    @Override
    public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
      listed.add(dir);
      return super.listFiles(dir, recursive);
    }

    @Override
    public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
      listed.add(dir);
      return super.listFilesDeferringAttributes(dir, recursive);
    }
  }

  @Test
  void everyDescendantBranchIsMarkedAsAReaderAndItsForkPointKept() {
    LanceTableFixture table = appends(3);
    LanceTableFixture b = table.createBranch("b", 2);
    long bLatest = b.append(10);
    b.createBranch("c", bLatest).append(10);
    table.tag("main-tag", 1);
    b.tag("b-tag", bLatest);

    CleanupPlan ofMain = plan(new CleanupPlanner(), table, DatasetRef.MAIN);
    assertThat(ofMain.slices()).filteredOn(s -> s.role() == SliceRole.BRANCH_READERS)
        .extracting(ManifestSlice::dataset).containsExactlyInAnyOrder(DatasetRef.branch("b"), DatasetRef.branch("c"));
    assertThat(ofMain.facts().forkPoints()).containsExactly(2L);
    assertThat(ofMain.facts().tagsByVersion()).isEqualTo(Map.of(1L, List.of("main-tag")));
    assertThat(ofMain.tableManifestCount()).isEqualTo(3);

    CleanupPlan ofB = plan(new CleanupPlanner(), table, DatasetRef.branch("b"));
    assertThat(ofB.slices()).filteredOn(s -> s.role() == SliceRole.TABLE_VERSIONS)
        .allMatch(s -> s.dataset().equals(DatasetRef.branch("b")));
    assertThat(ofB.slices()).filteredOn(s -> s.role() == SliceRole.BRANCH_READERS)
        .extracting(ManifestSlice::dataset).containsExactly(DatasetRef.branch("c"));
    assertThat(ofB.facts().forkPoints()).containsExactly(bLatest);
    assertThat(ofB.facts().tagsByVersion()).as("only the branch's own tags").isEqualTo(Map.of(bLatest, List.of("b-tag")));
    assertThat(ofB.facts().latestVersion()).isEqualTo(bLatest);
    assertThat(ofB.facts().dataset()).isEqualTo(DatasetRef.branch("b"));
  }

  @Test
  void refsAreTheFilesDirectlyInTheTagAndBranchDirectoriesOfOneListing() {
    LanceTableFixture table = appends(3);
    java.time.Instant now = java.time.Instant.now();
    byte[] garbage = "{\"version\": ".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    table.plant("_refs/tags/kept.json", "{\"branch\": null, \"version\": 2, \"manifestSize\": 1}"
        .getBytes(java.nio.charset.StandardCharsets.UTF_8), now);
    // Not refs, as Lance lays them out: read, they would fail the plan as corrupt.
    table.plant("_refs/tags/deeper/not-a-tag.json", garbage, now);
    table.plant("_refs/not-a-ref.json", garbage, now);

    CleanupPlan plan = plan(new CleanupPlanner(), table, DatasetRef.MAIN);

    assertThat(plan.facts().tagsByVersion()).isEqualTo(Map.of(2L, List.of("kept")));
  }

  @Test
  void aBranchThatDoesNotExistIsRefusedNamingIt() {
    LanceTableFixture table = appends(1);

    assertThatThrownBy(() -> plan(new CleanupPlanner(), table, DatasetRef.branch("nope")))
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining("branch nope")
        .hasMessageContaining(table.uri())
        .hasMessageContaining("no such branch");
  }

  @Test
  void aDirectoryWithoutManifestsIsNoTable() throws Exception {
    Path empty = Files.createDirectories(dir.resolve("not-a-table"));
    Files.writeString(empty.resolve("readme.txt"), "hello");

    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(empty.toString()), StorageConf.defaults())) {
      assertThatThrownBy(() -> new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW))
          .isInstanceOf(MaintenanceException.class)
          .hasMessageContaining("no manifests in _versions/")
          .hasMessageContaining("not-a-table");
    }
  }

  @Test
  void aListingThatEndsBelowTheLatestVersionHintIsRefused() throws Exception {
    // A lost newest manifest (or a store that lists too little) would make an older version the
    // latest, and its successors' files unreferenced: the hint Lance writes on every commit tells.
    LanceTableFixture table = appends(3);
    try (TableStorage storage = storage(table)) {
      ManifestLocation newest = plan(new CleanupPlanner(), table, DatasetRef.MAIN).slices().get(0).manifests().get(2);
      Files.delete(table.resolve(newest.path()));

      assertThatThrownBy(() -> new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW))
          .isInstanceOf(MaintenanceException.class)
          .hasMessageContaining("_versions/latest_version_hint.json records version 3")
          .hasMessageContaining("newest manifest listed is version 2")
          .hasMessageContaining("nothing was deleted");
    }
  }

  @Test
  void aListingAnsweredBeforeACommitTheHintRecordsIsReadAgainAfterTheHint() {
    // The hint is read beside the listing: the store may answer the listing first, then a writer
    // commits version 3 and its hint, then the store answers the hint. Not a lost manifest: read in
    // order, hint first, the listing reaches it.
    LanceTableFixture table = appends(3);
    try (ListingBeforeACommit storage = new ListingBeforeACommit(storage(table), 1)) {
      CleanupPlan plan = new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW);

      assertThat(plan.facts().latestVersion()).isEqualTo(3);
      assertThat(storage.versionListings).as("listings of _versions/").isEqualTo(2);
    }
    try (ListingBeforeACommit storage = new ListingBeforeACommit(storage(table), 0)) {
      assertThat(new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW).facts().latestVersion()).isEqualTo(3);
      assertThat(storage.versionListings).as("listings of _versions/ when the first reaches the hint").isEqualTo(1);
    }
    try (ListingBeforeACommit storage = new ListingBeforeACommit(storage(table), Integer.MAX_VALUE)) {
      assertThatThrownBy(() -> new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW))
          .as("a store that never lists the newest manifest").isInstanceOf(MaintenanceException.class)
          .hasMessageContaining("newest manifest listed is version 2");
      assertThat(storage.versionListings).isEqualTo(2);
    }
  }

  @Test
  void aHintReadWhileAWriterRewritesItIsReadAgain() {
    // A writer committing beside the run rewrites the hint; a read can see it cut off (seen with the
    // SDK on a local disk). Read again, it is whole; one that stays cut off is corrupt.
    LanceTableFixture table = appends(3);
    try (HintCutOff storage = new HintCutOff(storage(table), 2)) {
      assertThat(new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW).facts().latestVersion()).isEqualTo(3);
      assertThat(storage.hintReads).as("reads of the hint").isEqualTo(3);
    }
    try (HintCutOff storage = new HintCutOff(storage(table), Integer.MAX_VALUE)) {
      assertThatThrownBy(() -> new CleanupPlanner().plan(storage, POLICY, DatasetRef.MAIN, NOW))
          .isInstanceOf(CorruptTableException.class)
          .hasMessageContaining("_versions/latest_version_hint.json")
          .hasMessageContaining("t.lance");
      assertThat(storage.hintReads).as("reads of a hint that stays cut off").isEqualTo(5);
    }
  }

  /** Cuts the hint's bytes in half on its first {@code cutOff} reads. */
  private static final class HintCutOff extends ForwardingTableStorage {
    private final int cutOff;
    private int hintReads;

    HintCutOff(TableStorage delegate, int cutOff) {
      super(delegate);
      this.cutOff = cutOff;
    }

    @Override
    public synchronized byte[] readFully(String path) {
      byte[] bytes = super.readFully(path);
      if (!path.endsWith("latest_version_hint.json") || hintReads++ >= cutOff) {
        return bytes;
      }
      return Arrays.copyOf(bytes, bytes.length / 2);
    }
  }

  /** Hides the newest manifest from the first {@code hidden} listings of {@code _versions/}. */
  private static final class ListingBeforeACommit extends ForwardingTableStorage {
    private final int hidden;
    private int versionListings;

    ListingBeforeACommit(TableStorage delegate, int hidden) {
      super(delegate);
      this.hidden = hidden;
    }

    @Override
    public synchronized Iterator<FileEntry> listFiles(String dir, boolean recursive) {
      Iterator<FileEntry> listed = super.listFiles(dir, recursive);
      if (!dir.equals("_versions") || versionListings++ >= hidden) {
        return listed;
      }
      List<FileEntry> entries = new ArrayList<>();
      listed.forEachRemaining(entries::add);
      // Version 3's manifest (V2 naming: u64::MAX - 3), the newest.
      entries.removeIf(entry -> entry.path().endsWith(ManifestNaming.V2.fileName(3)));
      return entries.iterator();
    }
  }

  private LanceTableFixture appends(int count) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    for (int i = 0; i < count; i++) {
      table.append(5);
    }
    return table;
  }

  private static CleanupPlan plan(CleanupPlanner planner, LanceTableFixture table, DatasetRef dataset) {
    try (TableStorage storage = storage(table)) {
      return planner.plan(storage, POLICY, dataset, NOW);
    }
  }

  private static TableStorage storage(LanceTableFixture table) {
    return new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
  }

  private static List<Long> versions(ManifestSlice slice) {
    return slice.manifests().stream().map(ManifestLocation::version).toList();
  }

  private static ListingTask listing(String dir) {
    return new ListingTask(dir, true);
  }

}
