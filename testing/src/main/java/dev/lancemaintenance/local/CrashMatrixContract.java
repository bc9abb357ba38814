package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.runs.RunEntry;
import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.runs.RunState;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
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
 * <p>An engine supplies its child (a {@code main} taking {@code <table> <cutoff epoch ms>}, its own
 * {@link #childArguments}, then the crash point, and running the cleanup through {@link
 * CrashPoint.FreezingStorage}) and its rerun.
 */
public abstract class CrashMatrixContract {
  @TempDir static Path workDir;
  private static CrashTable crashTable;
  private static final AtomicInteger copies = new AtomicInteger();

  @BeforeAll
  public static void writeTheCrashTable() throws InterruptedException {
    crashTable = CrashTable.write(workDir);
  }

  /** The class whose {@code main} runs the engine's cleanup in the child JVM until it is killed. */
  protected abstract Class<?> child();

  /** The engine's cleanup of {@code table} for the rerun; the suite sets the cut-off. */
  protected abstract CleanupAction rerun(Path table, CrashPoint point);

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
    Path table = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(crashTable.pristine(), table);
    List<String> arguments = new ArrayList<>(List.of(table.toString(), Long.toString(crashTable.cutoff().toEpochMilli())));
    arguments.addAll(childArguments(point));

    point.killChildAt(child(), arguments.toArray(String[]::new));

    crashTable.assertSafeAfterACrashAt(point, table);
    // The end is recorded before the lease is released: only the last point has one.
    RunState killed = point == CrashPoint.BEFORE_RELEASING_THE_LEASE ? RunState.FINISHED : RunState.UNFINISHED;
    assertThat(history(table)).as("the killed run's record").extracting(RunEntry::state).containsExactly(killed);
    afterTheCrash(point);

    // The killed run's lease is still there, unreleased and unexpired: its holder is a dead process
    // of this machine, so the rerun takes it over at once.
    rerun(table, point).beforeTimestamp(crashTable.cutoff()).execute();

    crashTable.assertEndsLikeLance(table);
    List<RunEntry> runs = history(table);
    assertThat(runs).as("the rerun's record, then the killed run's").extracting(RunEntry::state)
        .containsExactly(RunState.FINISHED, killed);
    assertThat(runs.get(0).end().orElseThrow().counters()).containsEntry("failed_deletes", 0L);
    afterTheRerun(point);
  }

  /** The table's maintenance history, newest first. */
  private static List<RunEntry> history(Path table) {
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.toString()))) {
      return new RunRecords(storage).history(10, Clock.systemUTC());
    }
  }
}
