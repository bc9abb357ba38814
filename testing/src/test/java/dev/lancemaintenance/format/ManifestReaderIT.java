package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ScalarIndexKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our reader against the official SDK on one table written by it: appends, a delete, an update, a
 * scalar index, compaction, tags, a branch with a tag of its own, and a shallow clone.
 */
class ManifestReaderIT {
  @TempDir static Path dir;
  static LanceTableFixture main;
  static LanceTableFixture branch;
  static LanceTableFixture clone;
  static TableStorage mainStorage;
  static TableStorage cloneStorage;
  static long forkVersion;

  /** One line of history: where its versions live and who answers for it in the SDK. */
  record Line(String name, TableStorage storage, DatasetRef dataset, SdkView sdk, Path root) {}

  @BeforeAll
  static void writeTable() {
    main = LanceTableFixture.create(dir.resolve("table"));
    main.append(20);
    long second = main.append(20);
    main.deleteWhere("id = " + (LanceTableFixture.firstId(1) + 3));
    main.update(LanceTableFixture.firstId(second), 4);
    forkVersion = main.createScalarIndex("id", ScalarIndexKind.BTREE);
    main.tag("second", second);
    main.compact();
    main.append(5);
    branch = main.createBranch("b1", forkVersion);
    long onBranch = branch.append(7);
    branch.tag("on-branch", onBranch);
    clone = main.shallowClone(dir.resolve("clone"), forkVersion);
    clone.append(3);
    mainStorage = open(main.root());
    cloneStorage = open(clone.root());
  }

  @AfterAll
  static void closeStorage() {
    mainStorage.close();
    cloneStorage.close();
  }

  private static TableStorage open(Path root) {
    return new HadoopTableStorage(TableLocation.of(root.toString()), StorageConf.defaults());
  }

  static List<Line> lines() {
    return List.of(
        new Line("main", mainStorage, DatasetRef.MAIN, new SdkView(main.root(), Optional.empty()), main.root()),
        new Line("b1", mainStorage, DatasetRef.branch("b1"), new SdkView(main.root(), Optional.of("b1")), main.root()),
        new Line("clone", cloneStorage, DatasetRef.MAIN, new SdkView(clone.root(), Optional.empty()), clone.root()));
  }

  private static List<Manifest> manifests(Line line) {
    return VersionListing.list(line.storage(), line.dataset()).stream()
        .map(location -> ManifestReader.read(line.storage(), location)).toList();
  }

  @Test
  void listsTheVersionsAndTimestampsTheSdkLists() {
    for (Line line : lines()) {
      TreeMap<Long, Instant> ours = new TreeMap<>();
      for (Manifest manifest : manifests(line)) {
        ours.put(manifest.version(), Instant.EPOCH.plusNanos(manifest.timestampNanos()));
      }
      assertThat(ours).as(line.name()).isEqualTo(line.sdk().versions()).isNotEmpty();
    }
  }

  @Test
  void namesEachManifestFileAfterTheVersionItRecords() {
    for (Line line : lines()) {
      for (ManifestLocation location : VersionListing.list(line.storage(), line.dataset())) {
        assertThat(ManifestReader.read(line.storage(), location).version()).as(location.path())
            .isEqualTo(location.version());
        assertThat(location.naming()).as(location.path()).isEqualTo(ManifestNaming.V2);
      }
    }
  }

  @Test
  void readsTheFragmentsTheSdkSeesInEveryVersion() {
    for (Line line : lines()) {
      for (Manifest manifest : manifests(line)) {
        assertThat(OurView.fragments(manifest)).as(line.name() + " v" + manifest.version())
            .isEqualTo(line.sdk().fragments(manifest.version()));
      }
    }
  }

  @Test
  void readsTheIndicesTheSdkSeesInEveryVersion() {
    List<String> allIndices = new ArrayList<>();
    for (Line line : lines()) {
      for (Manifest manifest : manifests(line)) {
        assertThat(OurView.indexUuids(manifest)).as(line.name() + " v" + manifest.version())
            .isEqualTo(line.sdk().indexUuids(manifest.version()));
        allIndices.addAll(OurView.indexUuids(manifest));
      }
    }
    assertThat(allIndices).as("some version has an index").isNotEmpty();
  }

  @Test
  void readsTheTagsAndBranchesTheSdkLists() {
    SdkView sdk = lines().get(0).sdk();

    assertThat(OurView.tags(RefReader.listTags(mainStorage))).isEqualTo(sdk.tags()).hasSize(2);
    assertThat(OurView.branches(RefReader.listBranches(mainStorage))).isEqualTo(sdk.branches()).hasSize(1);
    assertThat(RefReader.listBranches(mainStorage)).extracting(Branch::dataset).containsExactly(DatasetRef.branch("b1"));
  }

  @Test
  void resolvesEveryReferenceToAFileOnDisk() {
    for (Line line : lines()) {
      for (Manifest manifest : manifests(line)) {
        for (FileReference reference : manifest.references(line.storage().location(), line.dataset())) {
          Path file = reference.external() ? Path.of(reference.path()) : line.root().resolve(reference.path());
          assertThat(file).as(line.name() + " v" + manifest.version() + " " + reference).exists();
          assertThat(Files.isDirectory(file)).as(reference.toString()).isEqualTo(reference.kind() == FileKind.INDEX);
        }
      }
    }
  }

  @Test
  void resolvesABranchsInheritedFilesToMainRelativePaths() {
    Line b1 = lines().get(1);
    List<Manifest> versions = manifests(b1);
    Manifest fork = versions.get(0);
    Manifest latest = versions.get(versions.size() - 1);

    assertThat(fork.version()).isEqualTo(forkVersion);
    assertThat(dataPaths(fork, b1)).isNotEmpty().allMatch(path -> path.startsWith("data/"));
    assertThat(dataPaths(latest, b1)).containsAll(dataPaths(fork, b1))
        .anyMatch(path -> path.startsWith("tree/b1/data/"));
    assertThat(latest.references(mainStorage.location(), DatasetRef.branch("b1")))
        .filteredOn(reference -> reference.kind() == FileKind.TRANSACTION)
        .extracting(FileReference::path).singleElement().asString().startsWith("tree/b1/_transactions/");
  }

  @Test
  void marksTheSourceFilesOfAShallowCloneAsExternal() {
    Line cloneLine = lines().get(2);
    Manifest first = manifests(cloneLine).get(0);

    assertThat(first.basePaths()).isNotEmpty();
    assertThat(first.references(cloneStorage.location(), DatasetRef.MAIN))
        .filteredOn(reference -> reference.kind() == FileKind.DATA)
        .isNotEmpty()
        .allSatisfy(reference -> {
          assertThat(reference.external()).isTrue();
          assertThat(reference.path()).startsWith(main.root().resolve("data").toString());
        });
  }

  @Test
  void derivesDeletionFileNamesThatMatchTheFilesOnDisk() {
    TreeSet<String> referenced = new TreeSet<>();
    for (Manifest manifest : manifests(lines().get(0))) {
      manifest.references(mainStorage.location(), DatasetRef.MAIN).stream()
          .filter(reference -> reference.kind() == FileKind.DELETION)
          .forEach(reference -> referenced.add(reference.path()));
    }
    TreeSet<String> onDisk = new TreeSet<>(main.listFiles().stream()
        .filter(path -> path.startsWith("_deletions/")).toList());

    assertThat(referenced).isNotEmpty().isEqualTo(onDisk);
  }

  @Test
  void readsTheEmbeddedTransactionLikeTheTransactionFile() {
    List<String> operations = new ArrayList<>();
    for (Manifest manifest : manifests(lines().get(0))) {
      TransactionSummary fromFile =
          TransactionReader.read(mainStorage, "_transactions/" + manifest.transactionFile());
      assertThat(manifest.transaction()).as("v" + manifest.version()).contains(fromFile);
      assertThat(manifest.transactionFile()).startsWith(fromFile.readVersion() + "-" + fromFile.uuid());
      operations.add(fromFile.operation());
    }
    assertThat(operations).containsExactly(
        "Overwrite", "Append", "Delete", "Update", "CreateIndex", "ReserveFragments", "Rewrite", "Append");
  }

  @Test
  void recordsTheWriterAndTheBranch() {
    Manifest onBranch = manifests(lines().get(1)).stream().reduce((a, b) -> b).orElseThrow();

    assertThat(onBranch.writer()).map(WriterVersion::library).contains("lance");
    assertThat(onBranch.branch()).contains("b1");
    assertThat(manifests(lines().get(0))).allSatisfy(manifest -> assertThat(manifest.branch()).isEmpty());
  }

  static Stream<String> dataPathStream(Manifest manifest, Line line) {
    return manifest.references(line.storage().location(), line.dataset()).stream()
        .filter(reference -> reference.kind() == FileKind.DATA).map(FileReference::path);
  }

  private static List<String> dataPaths(Manifest manifest, Line line) {
    return dataPathStream(manifest, line).toList();
  }
}
