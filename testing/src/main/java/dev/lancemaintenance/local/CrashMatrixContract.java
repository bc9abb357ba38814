package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.runs.RunState;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The crash matrix every engine runs: a child JVM cleans a copy of the {@link CrashTable} on the
 * engine and is killed ({@code kill -9}) at each {@link CrashPoint}; every version Lance keeps
 * still reads back (and, before the deletes, every file is there), the run's record shows it
 * unfinished, and a rerun on the engine takes the dead run's lease at once, ends with Lance's files
 * and records itself finished.
 *
 * <p>An engine supplies its child (a {@code main} that starts the engine, then takes its case from
 * {@link CrashChildren#awaitCase()}: {@code <table> <cutoff epoch ms>}, its own {@link
 * #childArguments}, then the crash point, and runs the cleanup through {@link
 * CrashPoint.FreezingStorage}) and its rerun. Each child is started one case ahead ({@link
 * CrashChildren}); each point is killed once, the kill inside the sweep serving both tests.
 */
public abstract class CrashMatrixContract {
  private static final String YOUNG_ORPHAN = CrashTable.YOUNG_ORPHAN;
  private static final Duration A_WEEK = Duration.ofDays(7);
  @TempDir static Path workDir;
  private static CrashTable crashTable;
  private static final AtomicInteger copies = new AtomicInteger();
  private static CrashChildren children;
  /** Kills still to come in this class: each point once (see {@link #killedAt}). */
  private static int killsLeft;
  /** The table a child was killed on inside its sweep, which both tests copy. */
  private static Path killedInsideTheSweep;

  @BeforeAll
  public static void writeTheCrashTable() throws InterruptedException {
    crashTable = CrashTable.write(workDir);
    killsLeft = CrashPoint.values().length;
    killedInsideTheSweep = null;
  }

  @AfterAll
  public static void stopTheSpareChild() {
    if (children != null) {
      children.close();
      children = null;
    }
  }

  /** The class whose {@code main} runs the engine's cleanup in the child JVM until it is killed. */
  protected abstract Class<?> child();

  /** The engine's cleanup of {@code table} for the rerun, "now" read from {@code clock}; the suite sets the cut-off. */
  protected abstract CleanupAction rerun(Path table, CrashPoint point, Clock clock);

  /** Arguments of the child after the table and the cut-off (before the crash point). */
  protected List<String> childArguments(CrashPoint point) {
    return List.of();
  }

  /** Checks of the engine's own leftovers once the child was killed. */
  protected void afterTheCrash(CrashPoint point) throws Exception {}

  /** Checks of the engine's own leftovers once the rerun finished. */
  protected void afterTheRerun(CrashPoint point) throws Exception {}

  protected static Path workDir() {
    return workDir;
  }

  @ParameterizedTest(name = "crash point {index} of " + CrashPoint.COUNT + ": kill -9 {0}, then a rerun ends like Lance")
  @EnumSource(CrashPoint.class)
  public void aRunKilledAtACrashPointLeavesRetainedVersionsReadableAndTheRerunFinishesLikeLance(CrashPoint point)
      throws Exception {
    Path table = killedAt(point);

    // The killed run's lease is still there, unreleased and unexpired: its holder is a dead process
    // of this machine, so the rerun takes it over at once.
    String killedRun = history(table).get(0).start().runId();
    CleanupResult rerun = rerun(table, point, Clock.systemUTC()).beforeTimestamp(childCutoff()).execute();

    crashTable.assertEndsLikeLance(table);
    // A run killed once it decided (its plan recorded before the first delete) and before its
    // manifests went is resumed; one killed earlier left no plan, one that ended is not dead.
    boolean decidedBeforeItDied = point.compareTo(CrashPoint.BEFORE_THE_FIRST_DELETE) >= 0
        && point.compareTo(CrashPoint.BEFORE_THE_MANIFESTS) <= 0;
    assertThat(rerun.resumedFrom()).as("the rerun's resumed_from").isEqualTo(decidedBeforeItDied ? killedRun : "");
    List<RunEntry> runs = history(table);
    assertThat(runs).as("the rerun's record, then the killed run's").extracting(RunEntry::state)
        .containsExactly(RunState.FINISHED, killedState(point));
    assertThat(runs.get(0).end().orElseThrow().counters()).containsEntry("failed_deletes", 0L);
    afterTheRerun(point);
  }

  /**
   * A run killed inside its sweep, then six reruns, each on its own copy of what it left: as it
   * was, the rerun resumes the dead run's sweep from its recorded decision (no listing; its result
   * and record say from which run), and so does one given a duration {@code older_than} whose later
   * cut-off expires the same versions, deleting an orphan the dead run kept for its age and that aged
   * past 7 days since, as the SDK does; when that cut-off expires one more version, after a commit, a
   * decide part cut short, a decide part missing or a garbled plan, the rerun starts over and says
   * why. Every rerun leaves what the SDK's cleanup with the rerun's policy leaves on a twin of the
   * same copy.
   */
  @Test
  public void aRunKilledInsideItsSweepIsResumedOnlyFromARecordedDecisionThatStillHolds() throws Exception {
    CrashPoint point = CrashPoint.INSIDE_THE_SWEEP;
    Path killed = killedAt(point);
    String dead = history(killed).get(0).start().runId();
    Path decided;
    try (Stream<Path> records = Files.list(killed.resolve(RunRecords.DIR))) {
      decided = records.filter(path -> path.toString().endsWith(".decided")).findFirst().orElseThrow();
    }

    Path resumes = copyOf(killed);
    assertThat(rerunLikeTheSdk(resumes, point).resumedFrom()).as("the result row's resumed_from").isEqualTo(dead);
    assertThat(history(resumes).get(0).end().orElseThrow().resume()).isEqualTo("resumed from " + dead);
    assertThat(crashTable.retainedVersionsReadBack(resumes)).as("every version Lance keeps reads back").isTrue();

    // A duration resolved against a later clock: resumed while its cut-off expires the same versions
    // (here up to the oldest retained version's timestamp), started over once it expires one more.
    // The rerun's clock is a week on, so the day-old orphan the killed run kept is 8 days old to it,
    // as it is (its time moved back a week) to the SDK's cleanup of the twin, which deletes it.
    Instant oldestRetained = oldestRetainedTimestamp().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    Path laterCutoff = copyOf(killed);
    LanceTableFixture aged = LanceTableFixture.open(laterCutoff);
    aged.setModificationTime(YOUNG_ORPHAN, aged.modificationTime(YOUNG_ORPHAN).minus(A_WEEK));
    assertThat(rerunLikeTheSdk(laterCutoff, point, oldestRetained, A_WEEK).resumedFrom()).as("resumed_from, a later cut-off").isEqualTo(dead);
    assertThat(history(laterCutoff).get(0).end().orElseThrow().resume()).isEqualTo("resumed from " + dead);
    assertThat(CrashTable.files(laterCutoff)).as("the orphan that aged since the killed run").doesNotContain(YOUNG_ORPHAN);
    assertThat(crashTable.retainedVersionsReadBack(laterCutoff)).as("every version Lance keeps reads back").isTrue();

    Path oneMoreExpires = copyOf(killed);
    assertThat(rerunLikeTheSdk(oneMoreExpires, point, oldestRetained.plusMillis(1), Duration.ZERO).resumedFrom()).isEmpty();
    assertThat(history(oneMoreExpires).get(0).end().orElseThrow().resume())
        .startsWith("started over: other versions expire than in " + dead + ": before_timestamp ")
        .contains(" passes its oldest retained version (");

    Path committed = copyOf(killed);
    LanceTableFixture.open(committed).append(5);
    assertStartsOver(committed, point, "started over: the table changed since " + dead + ": latest_version");

    Path cutShort = copyOf(killed);
    Path part = firstDecidePart(cutShort.resolve(killed.relativize(decided)));
    byte[] whole = Files.readAllBytes(part);
    Files.write(part, java.util.Arrays.copyOf(whole, whole.length - 2));
    assertStartsOver(cutShort, point, "started over: " + dead + " did not finish deciding: decide task");

    Path missing = copyOf(killed);
    Files.delete(firstDecidePart(missing.resolve(killed.relativize(decided))));
    assertStartsOver(missing, point, "started over: " + dead + " did not finish deciding: decide task");

    Path garbled = copyOf(killed);
    Path plan = garbled.resolve(killed.relativize(decided)).resolve("plan");
    String text = Files.readString(plan);
    Files.writeString(plan, text.replace("latest_version=", "latest_version=1"));
    assertStartsOver(garbled, point, "started over: " + dead + " left no readable plan (checksum mismatch)");
  }

  /**
   * A copy of the crash table on which a child was killed at {@code point}, checked as the crash
   * left it. The kill inside the sweep is made once: both tests get a copy of what it left.
   */
  private Path killedAt(CrashPoint point) throws Exception {
    if (point != CrashPoint.INSIDE_THE_SWEEP) {
      return kill(point);
    }
    if (killedInsideTheSweep == null) {
      killedInsideTheSweep = kill(point);
    }
    return copyOf(killedInsideTheSweep);
  }

  private Path kill(CrashPoint point) throws Exception {
    Path table = workDir.resolve("killed-" + copies.incrementAndGet());
    TableTwins.copy(crashTable.pristine(), table);
    List<String> arguments = new ArrayList<>(List.of(table.toString(), Long.toString(crashTable.cutoff().toEpochMilli())));
    arguments.addAll(childArguments(point));
    if (children == null) {
      children = new CrashChildren(child());
    }
    point.killChildAt(children, arguments, --killsLeft > 0);

    crashTable.assertSafeAfterACrashAt(point, table);
    // The end is recorded before the lease is released: only the last point has one.
    assertThat(history(table)).as("the killed run's record").extracting(RunEntry::state).containsExactly(killedState(point));
    afterTheCrash(point);
    return table;
  }

  private static RunState killedState(CrashPoint point) {
    return point == CrashPoint.BEFORE_RELEASING_THE_LEASE ? RunState.FINISHED : RunState.UNFINISHED;
  }

  private void assertStartsOver(Path table, CrashPoint point, String why) {
    assertThat(rerunLikeTheSdk(table, point).resumedFrom()).as("the result row's resumed_from").isEmpty();
    assertThat(history(table).get(0).end().orElseThrow().resume()).startsWith(why);
  }

  /** Reruns the engine's cleanup on {@code table} and checks it leaves the SDK's files on a twin of it. */
  private CleanupResult rerunLikeTheSdk(Path table, CrashPoint point) {
    Path twin = workDir.resolve("sdk-twin-" + copies.incrementAndGet());
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table, twin, OraclePolicy.builder().beforeTimestamp(childCutoff()).build());
    return assertLeaves(table, sdkLeaves, rerun(table, point, Clock.systemUTC()).beforeTimestamp(childCutoff()).execute());
  }

  /**
   * As {@link #rerunLikeTheSdk(Path, CrashPoint)} for a rerun given a duration {@code older_than},
   * its clock {@code ahead} of this one and fixed where the duration resolves to {@code cutoff}; the
   * SDK's twin gets that cut-off.
   */
  private CleanupResult rerunLikeTheSdk(Path table, CrashPoint point, Instant cutoff, Duration ahead) {
    Path twin = workDir.resolve("sdk-twin-" + copies.incrementAndGet());
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table, twin, OraclePolicy.builder().beforeTimestamp(cutoff).build());
    Instant now = Instant.now().plus(ahead);
    CleanupAction rerun = rerun(table, point, Clock.fixed(now, java.time.ZoneOffset.UTC)).olderThan(Duration.between(cutoff, now));
    return assertLeaves(table, sdkLeaves, rerun.execute());
  }

  private static CleanupResult assertLeaves(Path table, List<String> sdkLeaves, CleanupResult result) {
    assertThat(CrashTable.files(table)).as("files vs the SDK's cleanup of a twin").containsExactlyElementsOf(new TreeSet<>(sdkLeaves));
    assertThat(result.counters().failedDeletes()).isZero();
    try (Stream<Path> records = Files.walk(table.resolve(RunRecords.DIR))) {
      assertThat(records.map(Path::toString).filter(path -> path.contains(".decided/")))
          .as("recorded decisions after a finished run (none is ever resumed then)").isEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return result;
  }

  /**
   * The cut-off as the child got it, in whole milliseconds (still after the indexed version): the
   * rerun's unless it is given a duration that resolves later.
   */
  private static Instant childCutoff() {
    return Instant.ofEpochMilli(crashTable.cutoff().toEpochMilli());
  }

  /** The manifest timestamp of the oldest version Lance's cleanup with {@link #childCutoff} keeps. */
  private static Instant oldestRetainedTimestamp() {
    LanceTableFixture pristine = LanceTableFixture.open(crashTable.pristine());
    return pristine.versions().stream().map(pristine::manifestTimestamp).filter(at -> !at.isBefore(childCutoff()))
        .min(Instant::compareTo).orElseThrow();
  }

  private static Path copyOf(Path table) {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(table, copy);
    return copy;
  }

  private static Path firstDecidePart(Path decided) throws java.io.IOException {
    try (Stream<Path> parts = Files.list(decided)) {
      return parts.filter(path -> path.getFileName().toString().startsWith("part-decide-")).sorted().findFirst().orElseThrow();
    }
  }

  /** The table's maintenance history, newest first. */
  private static List<RunEntry> history(Path table) {
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.toString()))) {
      return new RunRecords(storage).history(10, Clock.systemUTC());
    }
  }
}
