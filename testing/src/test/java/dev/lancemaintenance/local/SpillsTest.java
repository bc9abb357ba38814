package dev.lancemaintenance.local;

import static dev.lancemaintenance.storage.Leases.deadPid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.LeaseHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spill directories left by runs that died (kill -9) go at the next run; live and foreign ones stay. */
class SpillsTest {
  @TempDir Path temp;

  @Test
  void theNextRunRemovesTheSpillOfADeadRunAndKeepsTheOthers() throws Exception {
    LeaseHolder self = LeaseHolder.ofOwner("spill");
    Path dead = spill("lance-cleanup-dead", deadPid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");
    Path live = spill("lance-cleanup-live", self.pid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n");
    Path foreign = spill("lance-cleanup-foreign", deadPid() + "\n1\nanother-machine\n");
    Path unmarked = Files.createDirectory(temp.resolve("lance-cleanup-unmarked"));
    Files.writeString(dead.resolve("files-0"), "data/secret-path.lance");

    new Spills(temp, 2).close();

    // Removed beside the run, and before it ends.
    assertThat(dead).as("the dead run's spill, with the table's paths").doesNotExist();
    assertThat(live).as("a live run's spill").exists();
    assertThat(foreign).as("a spill of another machine: its pid says nothing here").exists();
    assertThat(unmarked).as("an unmarked directory").exists();
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .as("this run's own spill went at its end")
          .containsExactlyInAnyOrder("lance-cleanup-live", "lance-cleanup-foreign", "lance-cleanup-unmarked");
    }
  }

  @Test
  void aRunSpillingToDiskWhileTheDeadRunsSpillsAreRemovedBesideItKeepsEveryRecord() throws Exception {
    // The removal runs beside the run, which may be making and marking its own directory meanwhile:
    // that directory is this live process's, or not yet marked, and is never taken for a dead one.
    LeaseHolder self = LeaseHolder.ofOwner("spill");
    List<Path> dead = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      dead.add(spill("lance-cleanup-dead-" + i, deadPid() + "\n" + self.processStartMillis() + "\n" + self.machine() + "\n"));
    }
    try (Spills spills = new Spills(temp, 2, new SpillBudget(0))) {
      List<ReferenceMark> added = addKeptMarks(spills, 1_000);
      assertThat(marksOfBothPartitions(spills)).as("every record this run spilled to disk")
          .containsExactlyInAnyOrderElementsOf(added);
    }
    assertThat(dead).as("the dead runs' spills, gone by the end of the run").allMatch(Files::notExists);
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("this run's own spill went at its end").isEmpty();
    }
  }

  @Test
  void aRunKilledMidSpillIsRecognisedAsDeadFromItsOwnMark() throws Exception {
    Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            SpillingChild.class.getName(), temp.toString())
        .redirectErrorStream(true)
        .start();
    String ready = new String(child.getInputStream().readNBytes("spilling\n".length()));
    assertThat(ready).isEqualTo("spilling\n");
    child.destroyForcibly().waitFor();
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("the killed run's spill").hasSize(1);
    }

    new Spills(temp, 1).close();

    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("spills after the next run").isEmpty();
    }
  }

  @Test
  void aRunWhoseRecordsFitInMemoryMakesNoDirectoryAndOneThatSpillsMakesAMarkedOne() throws Exception {
    Path inMemory = Files.createDirectories(temp.resolve("in-memory"));
    try (Spills spills = new Spills(inMemory, 2)) {
      spills.addFile(new FileEntry("data/a.lance", 10, 1_000), DatasetRef.MAIN);
      spills.addMark(new ReferenceMark("data/a.lance", FileKind.DATA, MarkState.KEPT));
      try (Stream<Path> made = Files.list(inMemory)) {
        assertThat(made.toList()).as("nothing on disk while every record is in memory").isEmpty();
      }
    }
    Path onDisk = Files.createDirectories(temp.resolve("on-disk"));
    try (Spills spills = new Spills(onDisk, 2, new SpillBudget(0))) {
      spills.addFile(new FileEntry("data/a.lance", 10, 1_000), DatasetRef.MAIN);
      try (Stream<Path> made = Files.list(onDisk)) {
        List<Path> dirs = made.toList();
        assertThat(dirs).as("one spill directory once a record went to disk").hasSize(1);
        assertThat(dirs.get(0).resolve(Spills.OWNER_FILE)).as("marked with this process before its first file").exists();
      }
    }
    try (Stream<Path> left = Files.list(onDisk)) {
      assertThat(left.toList()).as("the spill is gone at close").isEmpty();
    }
  }

  @Test
  void aFileAndTheMarkOfItsReferenceKeyMeetInOnePartitionAndComeBackWhole() throws Exception {
    // The decision reads one partition's marks against the same partition's files: a listed index
    // file or blob sidecar that landed apart from its key's mark would look unreferenced.
    ReferenceMark indexMark = new ReferenceMark("tree/b/_indices/0b5c", FileKind.INDEX, MarkState.KEPT);
    ReferenceMark dataMark = new ReferenceMark("tree/b/data/f1.lance", FileKind.DATA, MarkState.KEPT_IF_PRESENT);
    FileEntry indexFile = new FileEntry("tree/b/_indices/0b5c/part-3/index.idx", 42, 1234, FileEntry.EntryType.LINK);
    FileEntry sidecar = new FileEntry("tree/b/data/f1/7.blob", 7, 99);
    CandidateFile manifest = new CandidateFile("tree/b/_versions/3.manifest", FileKind.MANIFEST, 512, RemovalReason.EXPIRED_VERSION);

    try (Spills spills = new Spills(temp, 16)) {
      spills.addMark(indexMark);
      spills.addMark(dataMark);
      spills.addFile(indexFile, DatasetRef.branch("b"));
      spills.addFile(sidecar, DatasetRef.branch("b"));
      spills.addExpiredManifest(manifest);

      assertThat(partitionHolding(spills, indexMark)).isEqualTo(partitionHolding(spills, indexFile))
          .isEqualTo(ReferenceKeys.partitionOf(indexMark.key(), 16));
      assertThat(partitionHolding(spills, dataMark)).isEqualTo(partitionHolding(spills, sidecar));
      List<CandidateFile> manifests = new ArrayList<>();
      spills.expiredManifests().forEach(manifests::add);
      assertThat(manifests).containsExactly(manifest);
    }
    try (Stream<Path> left = Files.list(temp)) {
      assertThat(left.toList()).as("the spill, with the table's paths, is gone at close").isEmpty();
    }
  }

  @Test
  void everyRecordComesBackInAppendOrderWhetherItWaitedInMemoryOnDiskOrMovedHalfWay() throws Exception {
    // Where a record waits must change nothing the decision reads: same records (every field, as
    // the codecs write them), same order. A budget of 0 is all disk; 3 moves the first file to disk
    // after its third record; the default holds everything in memory.
    List<FileEntry> listed = List.of(
        new FileEntry("data/a.lance", 10, 1_000),
        FileEntry.unread("data/b.lance"),
        new FileEntry("data/c", 0, 3_000, FileEntry.EntryType.LINK),
        new FileEntry("data/d.lance", 40, 4_000),
        new FileEntry("data/e.lance", 50, 5_000));
    List<ReferenceMark> marks = List.of(
        new ReferenceMark("data/a.lance", FileKind.DATA, MarkState.KEPT),
        new ReferenceMark("data/z.lance", FileKind.DATA, MarkState.EXPIRED));
    for (long budget : new long[] {0, 3, SpillBudget.DEFAULT_RECORDS}) {
      Path parent = Files.createDirectories(temp.resolve("budget-" + budget));
      try (Spills spills = new Spills(parent, 1, new SpillBudget(budget))) {
        listed.forEach(file -> spills.addFile(file, DatasetRef.MAIN));
        marks.forEach(spills::addMark);
        List<FileEntry> files = new ArrayList<>();
        spills.files(0).forEach(files::add);
        List<ReferenceMark> readMarks = new ArrayList<>();
        spills.marks(0).forEach(readMarks::add);
        assertThat(files).as("files, budget " + budget).containsExactlyElementsOf(listed);
        assertThat(readMarks).as("marks, budget " + budget).containsExactlyElementsOf(marks);
        try (Stream<Path> written = Files.list(parent).flatMap(SpillsTest::filesIn)) {
          assertThat(written.map(p -> p.getFileName().toString()).filter(n -> !n.equals(Spills.OWNER_FILE)))
              .as("spill files on disk, budget " + budget)
              .containsExactlyInAnyOrderElementsOf(
                  budget == 0 ? List.of("files-0", "marks-0") : budget == 3 ? List.of("files-0") : List.of());
        }
      }
    }
  }

  @Test
  void filesThatOutgrowTheRunsBudgetMoveToDiskAndTheBudgetIsWholeAgainAtClose() throws Exception {
    // One budget for every file of the run: 20 marks in two partitions cannot all stay within 4.
    SpillBudget budget = new SpillBudget(4);
    try (Spills spills = new Spills(temp, 2, budget)) {
      List<ReferenceMark> added = addKeptMarks(spills, 20);
      assertThat(marksOfBothPartitions(spills)).containsExactlyInAnyOrderElementsOf(added);
      try (Stream<Path> written = Files.list(temp).flatMap(SpillsTest::filesIn)) {
        assertThat(written.map(p -> p.getFileName().toString()).toList()).as("spill files on disk")
            .anyMatch(name -> name.startsWith("marks-"));
      }
    }
    int free = 0;
    while (budget.tryTake()) {
      free++;
    }
    assertThat(free).as("room in memory once the spills closed").isEqualTo(4);
  }

  @Test
  void recordsAppendedAfterAReadFollowThoseReadWhereverTheyWait() throws Exception {
    CandidateFile first = new CandidateFile("_versions/1.manifest", FileKind.MANIFEST, 10, RemovalReason.EXPIRED_VERSION);
    CandidateFile second = new CandidateFile("_versions/2.manifest", FileKind.MANIFEST, 20, RemovalReason.EXPIRED_VERSION);
    for (long budget : new long[] {0, SpillBudget.DEFAULT_RECORDS}) {
      Path parent = Files.createDirectories(temp.resolve("again-" + budget));
      try (Spills spills = new Spills(parent, 1, new SpillBudget(budget))) {
        spills.addExpiredManifest(first);
        spills.expiredManifests().forEach(manifest -> {});
        spills.addExpiredManifest(second);
        List<CandidateFile> read = new ArrayList<>();
        spills.expiredManifests().forEach(read::add);
        assertThat(read).as("budget " + budget).containsExactly(first, second);
      }
    }
  }

  /** Adds {@code count} kept marks of distinct data files and returns them. */
  private static List<ReferenceMark> addKeptMarks(Spills spills, int count) {
    List<ReferenceMark> added = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ReferenceMark mark = new ReferenceMark("data/f" + i + ".lance", FileKind.DATA, MarkState.KEPT);
      spills.addMark(mark);
      added.add(mark);
    }
    return added;
  }

  /** The marks of a two-partition spill, partition 0 first. */
  private static List<ReferenceMark> marksOfBothPartitions(Spills spills) {
    List<ReferenceMark> read = new ArrayList<>();
    spills.marks(0).forEach(read::add);
    spills.marks(1).forEach(read::add);
    return read;
  }

  private static Stream<Path> filesIn(Path dir) {
    try {
      return Files.isDirectory(dir) ? Files.list(dir).toList().stream() : Stream.of(dir);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static int partitionHolding(Spills spills, Object record) {
    List<Integer> found = new ArrayList<>();
    for (int p = 0; p < spills.partitions(); p++) {
      List<Object> records = new ArrayList<>();
      spills.marks(p).forEach(records::add);
      spills.files(p).forEach(records::add);
      if (records.contains(record)) {
        found.add(p);
      }
    }
    assertThat(found).as("partitions holding " + record).hasSize(1);
    return found.get(0);
  }

  /** A run that spills and then waits to be killed. */
  static final class SpillingChild {
    public static void main(String[] args) throws Exception {
      // Every record to disk: a run whose records fit in memory makes no directory to leave behind.
      Spills spills = new Spills(Path.of(args[0]), 1, new SpillBudget(0));
      spills.addExpiredManifest(new dev.lancemaintenance.cleanup.CandidateFile(
          "_versions/1.manifest", dev.lancemaintenance.format.FileKind.MANIFEST, 10,
          dev.lancemaintenance.cleanup.RemovalReason.values()[0]));
      spills.expiredManifests().count();
      System.out.print("spilling\n");
      System.out.flush();
      Thread.sleep(600_000);
    }
  }

  private Path spill(String name, String owner) throws Exception {
    Path dir = Files.createDirectory(temp.resolve(name));
    Files.writeString(dir.resolve(Spills.OWNER_FILE), owner);
    return dir;
  }

}
