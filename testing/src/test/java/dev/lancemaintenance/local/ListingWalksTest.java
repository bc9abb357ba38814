package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The walks started ahead of a run's listing tasks ({@link ListingWalks}): the task equal to a
 * walk's takes it over once and meets the names its own walk would have given, with the walk's
 * failure; a task no walk was started for (one that reads no walk of the store, or the second of
 * two equal tasks) walks itself; closing ends a walk no task took, whichever way it was started.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ListingWalksTest {
  private static final List<String> DIRECTORIES = List.of("data", "_transactions", "_deletions", "_indices");
  private static final int DATA_FILES = 300;

  @TempDir Path root;
  /** The walks asked of the store, by directory. */
  private final Map<String, AtomicInteger> walked = new ConcurrentHashMap<>();
  private final Map<String, RuntimeException> failing = new ConcurrentHashMap<>();
  private TableStorage storage;

  @BeforeEach
  void aTableOnDisk() throws IOException {
    for (String dir : DIRECTORIES) {
      Files.createDirectories(root.resolve(dir));
    }
    for (int i = 0; i < DATA_FILES; i++) {
      Files.write(root.resolve("data/" + i + ".lance"), new byte[i % 7]);
    }
    Files.write(root.resolve("_transactions/1.txn"), new byte[3]);
    storage = new ForwardingTableStorage(
        HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(root.toUri().toString()))) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        walked.computeIfAbsent(dir, d -> new AtomicInteger()).incrementAndGet();
        RuntimeException failure = failing.get(dir);
        if (failure != null) {
          throw failure;
        }
        return super.listFiles(dir, recursive);
      }
    };
  }

  @Test
  void aTaskNoWalkWasStartedForWalksItself() {
    try (ListingWalks walks = ListingWalks.noneStarted(storage)) {
      assertThat(readAll(walks.files(new ListingTask("data", true)))).hasSize(DATA_FILES);
    }
    assertThat(walked.get("data")).hasValue(1);
  }

  @Test
  void aWalkBesideTheMarkIsTakenOverOnceByTheEqualTaskWithTheNamesOfItsOwnWalk() {
    List<FileEntry> ownWalk = readAll(ListingWalks.noneStarted(storage).files(new ListingTask("data", true)));
    walked.clear();
    try (ListingWalks walks = ListingWalks.noneStarted(storage)) {
      walks.startBesideTheMark(List.of(new ListingTask("data", true), new ListingTask("_transactions", true)), 64);
      // An equal task, not the same instance: as the plan's tasks equal the walks known before it.
      assertThat(readAll(walks.files(new ListingTask("data", true)))).containsExactlyElementsOf(ownWalk);
      assertThat(walked.get("data")).as("taken over, not walked again").hasValue(1);
      assertThat(readAll(walks.files(new ListingTask("data", true)))).as("a second equal task walks itself")
          .containsExactlyElementsOf(ownWalk);
      assertThat(walked.get("data")).hasValue(2);
    }
  }

  @Test
  void aTaskThatReadsNoWalkOfTheStoreHasNoneStartedAndReadsItsOwnFiles() {
    List<FileEntry> listedByPlan = List.of(FileEntry.unread("data/0.lance"));
    ListingTask given = ListingTask.listedByPlan("data", listedByPlan);
    try (ListingWalks walks = ListingWalks.noneStarted(storage)) {
      walks.startBesideTheMark(List.of(given), 64);
      assertThat(readAll(walks.files(given))).containsExactlyElementsOf(listedByPlan);
    }
    assertThat(walked).as("no walk of the store").isEmpty();
  }

  @Test
  void aWalkBesideTheMarkThatFailsFailsTheTaskThatTakesItOver() {
    StorageException broken = new StorageException("list", "data", new IOException("the disk went away"));
    failing.put("data", broken);
    try (ListingWalks walks = ListingWalks.noneStarted(storage)) {
      walks.startBesideTheMark(List.of(new ListingTask("data", true)), 64);
      Iterator<FileEntry> files = walks.files(new ListingTask("data", true));
      assertThatThrownBy(files::hasNext).isSameAs(broken);
    }
  }

  @Test
  void closingEndsAWalkBesideTheMarkNoTaskTookWhileItWaitsForRoom() throws InterruptedException {
    ListingWalks walks = ListingWalks.noneStarted(storage);
    walks.startBesideTheMark(List.of(new ListingTask("data", true)), 1); // a chunk of one name
    Thread walker = awaitWaiting("lance-cleanup-walk-data");
    walks.close();
    assertThat(walker.isAlive()).as("the walker after close").isFalse();
  }

  @Test
  void theWalksBesideThePlanAreTheDatasetsDirectoriesEachTakenOverByItsEqualTask() {
    try (ListingWalks walks = ListingWalks.startedBesideThePlan(storage, DatasetRef.MAIN)) {
      for (ListingTask task : CleanupPlanner.walksKnownBeforeThePlan(DatasetRef.MAIN)) {
        ListingTask plansTask = new ListingTask(task.dir(), task.recursive());
        assertThat(readAll(walks.files(plansTask))).as(task.dir())
            .hasSize(task.dir().equals("data") ? DATA_FILES : task.dir().equals("_transactions") ? 1 : 0);
      }
    }
    assertThat(walked.keySet()).containsExactlyInAnyOrderElementsOf(DIRECTORIES);
    assertThat(walked.values()).as("each walked once").allSatisfy(walks -> assertThat(walks).hasValue(1));
  }

  @Test
  void aWalkBesideThePlanThatFailsFailsTheTaskThatTakesItOverAndNoOneElseWhenNoneDoes() {
    StorageException broken = new StorageException("list", "data", new IOException("no such bucket"));
    failing.put("data", broken);
    try (ListingWalks walks = ListingWalks.startedBesideThePlan(storage, DatasetRef.MAIN)) {
      assertThatThrownBy(() -> walks.files(new ListingTask("data", true))).isSameAs(broken);
    }
    ListingWalks untaken = ListingWalks.startedBesideThePlan(storage, DatasetRef.MAIN);
    assertThatCode(untaken::close).as("a failed walk no task took").doesNotThrowAnyException();
    assertThat(walked.get("data")).as("asked once by each run, never by its close").hasValue(2);
  }

  private static List<FileEntry> readAll(Iterator<FileEntry> files) {
    List<FileEntry> read = new ArrayList<>();
    files.forEachRemaining(read::add);
    return read;
  }

  /** The walker thread of that name, once it waits (for room: a walk of the disk never blocks). */
  private static Thread awaitWaiting(String name) throws InterruptedException {
    Thread walker = null;
    while (walker == null) {
      walker = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst().orElse(null);
      Thread.sleep(1);
    }
    while (walker.getState() != Thread.State.WAITING) {
      Thread.sleep(1);
    }
    return walker;
  }
}
