package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
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
 * still reads back (and, before the deletes, every file is there), and a rerun on the engine takes
 * the dead run's lease at once and ends with Lance's files.
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
    afterTheCrash(point);

    // The killed run's lease is still there, unreleased and unexpired: its holder is a dead process
    // of this machine, so the rerun takes it over at once.
    rerun(table, point).beforeTimestamp(crashTable.cutoff()).execute();

    crashTable.assertEndsLikeLance(table);
    afterTheRerun(point);
  }
}
