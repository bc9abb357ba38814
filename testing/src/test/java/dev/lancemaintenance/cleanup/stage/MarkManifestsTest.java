package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.ManifestSlice.SliceRole;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mark stage on a real table with a history of append, append, overwrite, append: versions 1 and
 * 2 read {@code d1} (and 2 also {@code d2}), versions 3 and 4 read {@code d3} (and 4 also {@code
 * d4}). A retained version keeps what it reads; an expired one marks its files expired and gives
 * up its manifest; a tag, a fork point and a branch each keep what Lance keeps for them.
 */
class MarkManifestsTest {
  private static final CleanupPolicy BEFORE_3 = CleanupPolicy.builder().beforeVersion(3).build();

  @TempDir Path dir;

  private LanceTableFixture table;
  /** The data file each version wrote, by version. */
  private final Map<Long, String> dataOf = new HashMap<>();
  private TableStorage storage;

  @BeforeEach
  void history() {
    table = LanceTableFixture.create(dir.resolve("t.lance"));
    write(1, () -> table.append(10));
    write(2, () -> table.append(10));
    write(3, () -> table.overwrite(10));
    write(4, () -> table.append(10));
    storage = new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void expiredVersionsMarkWhatOnlyTheyReadExpiredAndGiveUpTheirManifests() {
    MarkResult result = new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of())).mark(slice(DatasetRef.MAIN));

    assertThat(dataStates(result)).containsExactlyInAnyOrderEntriesOf(Map.of(
        dataOf.get(1L), MarkState.EXPIRED, dataOf.get(2L), MarkState.EXPIRED,
        dataOf.get(3L), MarkState.KEPT, dataOf.get(4L), MarkState.KEPT));
    assertThat(result.expiredManifests()).extracting(CandidateFile::path)
        .containsExactly("_versions/" + manifestName(1), "_versions/" + manifestName(2));
    assertThat(result.expiredManifests()).allMatch(m -> m.kind() == FileKind.MANIFEST && m.bytes() > 0);
    assertThat(result.summary().manifestsRead()).isEqualTo(4);
    assertThat(result.summary().expiredVersions()).isEqualTo(2);
    assertThat(result.summary().taggedOldVersions()).isEmpty();
    assertThat(result.marks()).extracting(ReferenceMark::key).doesNotHaveDuplicates();
  }

  @Test
  void aFileAnExpiredVersionSharesWithARetainedOneIsKept() {
    // Before version 2: version 1 expires, but version 2 still reads d1.
    MarkResult result = new MarkManifests(storage, facts(CleanupPolicy.builder().beforeVersion(2).build(), Map.of(), Set.of()))
        .mark(slice(DatasetRef.MAIN));

    assertThat(dataStates(result)).containsEntry(dataOf.get(1L), MarkState.KEPT).containsEntry(dataOf.get(2L), MarkState.KEPT);
    assertThat(result.expiredManifests()).hasSize(1);
  }

  @Test
  void marksDoNotDependOnHowTheVersionsAreSliced() {
    // Within a slice, fragments repeated from the previous manifest are skipped; across slices the
    // marks meet on the driver. Both must come to the same states.
    RetentionFacts facts = facts(BEFORE_3, Map.of(), Set.of());
    List<ManifestLocation> manifests = manifests(DatasetRef.MAIN);
    Map<String, MarkState> merged = new TreeMap<>();
    List<CandidateFile> expired = new ArrayList<>();
    for (ManifestLocation one : manifests) {
      MarkResult part = new MarkManifests(storage, facts).mark(new ManifestSlice(SliceRole.TABLE_VERSIONS, DatasetRef.MAIN, List.of(one)));
      part.marks().forEach(mark -> merged.merge(mark.key(), mark.state(), MarkState::merge));
      expired.addAll(part.expiredManifests());
    }
    MarkResult whole = new MarkManifests(storage, facts).mark(slice(DatasetRef.MAIN));

    assertThat(merged).isEqualTo(states(whole));
    assertThat(expired).isEqualTo(whole.expiredManifests());
  }

  @Test
  void aTaggedOldVersionKeepsItsFilesAndIsReportedAndALaterExpiredOneDoesNotUndoThat() {
    MarkResult result = new MarkManifests(storage, facts(BEFORE_3, Map.of(1L, List.of("release")), Set.of()))
        .mark(slice(DatasetRef.MAIN));

    assertThat(dataStates(result)).containsEntry(dataOf.get(1L), MarkState.KEPT).containsEntry(dataOf.get(2L), MarkState.EXPIRED);
    assertThat(result.expiredManifests()).extracting(CandidateFile::path).containsExactly("_versions/" + manifestName(2));
    assertThat(result.summary().taggedOldVersions()).containsExactly(Map.entry("release", 1L));
    assertThat(result.summary().expiredVersions()).isEqualTo(1);
  }

  @Test
  void aForkPointKeepsItsManifestButNotItsFiles() {
    MarkResult result = new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of(2L))).mark(slice(DatasetRef.MAIN));

    assertThat(dataStates(result)).containsEntry(dataOf.get(2L), MarkState.EXPIRED);
    assertThat(result.expiredManifests()).extracting(CandidateFile::path).containsExactly("_versions/" + manifestName(1));
    assertThat(result.summary().earliestRetainedNanos())
        .as("a fork point does not bound the listing cut-off")
        .isEqualTo(new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of())).mark(slice(DatasetRef.MAIN)).summary().earliestRetainedNanos())
        .isLessThan(Long.MAX_VALUE);
  }

  @Test
  void onlyRetainedVersionsBoundTheListingCutOff() {
    List<ManifestLocation> manifests = manifests(DatasetRef.MAIN);
    MarkResult expiredOnly = new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of()))
        .mark(new ManifestSlice(SliceRole.TABLE_VERSIONS, DatasetRef.MAIN, manifests.subList(0, 2)));
    MarkResult retainedOnly = new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of()))
        .mark(new ManifestSlice(SliceRole.TABLE_VERSIONS, DatasetRef.MAIN, manifests.subList(2, 4)));
    MarkResult all = new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of())).mark(slice(DatasetRef.MAIN));

    assertThat(expiredOnly.summary().earliestRetainedNanos()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.summary().earliestRetainedNanos()).isEqualTo(retainedOnly.summary().earliestRetainedNanos());
  }

  @Test
  void aBranchKeepsEveryFileItReadsFromTheTableAndItsOwnFilesAreNotMarked() {
    LanceTableFixture branch = table.createBranch("b", 2);
    branch.append(10);
    // A policy that would expire every version of the table must not touch what the branch reads.
    RetentionFacts facts = facts(CleanupPolicy.builder().beforeVersion(Long.MAX_VALUE).build(), Map.of(), Set.of());

    MarkResult result = new MarkManifests(storage, facts)
        .mark(new ManifestSlice(SliceRole.BRANCH_READERS, DatasetRef.branch("b"), manifests(DatasetRef.branch("b"))));

    assertThat(dataStates(result)).containsExactlyInAnyOrderEntriesOf(Map.of(
        dataOf.get(1L), MarkState.KEPT, dataOf.get(2L), MarkState.KEPT));
    assertThat(result.marks()).extracting(ReferenceMark::key).noneMatch(key -> key.startsWith("tree/"));
    assertThat(result.marks()).extracting(ReferenceMark::state).doesNotContain(MarkState.EXPIRED);
    assertThat(result.expiredManifests()).isEmpty();
    assertThat(result.summary().expiredVersions()).isZero();
  }

  @Test
  void aManifestThatCannotBeReadFailsTheMarkNamingIt() throws Exception {
    ManifestLocation second = manifests(DatasetRef.MAIN).get(1);
    Path file = table.resolve(second.path());
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length / 3] ^= (byte) 0xff;
    bytes[bytes.length / 3 + 1] ^= (byte) 0xff;
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 7));

    assertThatThrownBy(() -> new MarkManifests(storage, facts(BEFORE_3, Map.of(), Set.of())).mark(slice(DatasetRef.MAIN)))
        .hasMessageContaining(second.path());
  }

  private void write(long version, Runnable verb) {
    List<String> before = Files.isDirectory(table.root()) ? table.listFiles() : List.of();
    verb.run();
    List<String> created = table.listFiles().stream()
        .filter(p -> p.startsWith("data/") && !before.contains(p)).toList();
    assertThat(created).as("data files written by version " + version).hasSize(1);
    assertThat(table.latestVersion()).isEqualTo(version);
    dataOf.put(version, created.get(0));
  }

  private RetentionFacts facts(CleanupPolicy policy, Map<Long, List<String>> tags, Set<Long> forkPoints) {
    return new RetentionFacts(table.uri(), DatasetRef.MAIN, policy, 4, tags, forkPoints, System.currentTimeMillis());
  }

  private ManifestSlice slice(DatasetRef dataset) {
    return new ManifestSlice(SliceRole.TABLE_VERSIONS, dataset, manifests(dataset));
  }

  private List<ManifestLocation> manifests(DatasetRef dataset) {
    List<ManifestLocation> manifests = new ArrayList<>(VersionListing.list(storage, dataset));
    manifests.sort(Comparator.comparingLong(ManifestLocation::version));
    return manifests;
  }

  private String manifestName(long version) {
    return manifests(DatasetRef.MAIN).stream().filter(m -> m.version() == version).findFirst().orElseThrow().path()
        .substring("_versions/".length());
  }

  private static Map<String, MarkState> states(MarkResult result) {
    Map<String, MarkState> states = new TreeMap<>();
    result.marks().forEach(mark -> states.put(mark.key(), mark.state()));
    return states;
  }

  private static Map<String, MarkState> dataStates(MarkResult result) {
    Map<String, MarkState> states = new TreeMap<>();
    result.marks().stream().filter(mark -> mark.kind() == FileKind.DATA)
        .forEach(mark -> states.put(mark.key(), mark.state()));
    return states;
  }
}
