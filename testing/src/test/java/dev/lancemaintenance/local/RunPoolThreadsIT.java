package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.OrphanedTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine's pool starts its threads beside the plan, not with its first task: no thread of
 * it may outlive the run, whether the run finished or failed before any task (the start then comes
 * after the pool stopped and must start nothing).
 */
class RunPoolThreadsIT {
  private static final Pattern POOL_THREAD = Pattern.compile("lance-cleanup-\\d+");

  @TempDir Path dir;

  @Test
  void noThreadOfTheRunsPoolOutlivesAFinishedRun() throws Exception {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("t.lance"));

    action(orphaned.table().root()).execute();

    assertNoPoolThreadLeft();
  }

  @Test
  void noThreadOfTheRunsPoolOutlivesARunThatFailedInItsPlan() throws Exception {
    Path notATable = Files.createDirectories(dir.resolve("empty.lance/_versions"));

    for (int run = 0; run < 20; run++) {
      assertThatThrownBy(() -> action(notATable.getParent()).execute())
          .isInstanceOf(MaintenanceException.class).hasMessageContaining("no manifests");
    }

    assertNoPoolThreadLeft();
  }

  private static LocalCleanupAction action(Path table) {
    return new LocalCleanupAction(TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
        Clock.systemUTC());
  }

  /** A stopped pool's last threads end a moment after its termination; a started one would stay idle for good. */
  private static void assertNoPoolThreadLeft() throws InterruptedException {
    long deadline = System.nanoTime() + 2_000_000_000L;
    while (!poolThreads().isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    Thread.sleep(200); // a start handed beside the plan that came late would have made its threads by now
    assertThat(poolThreads()).as("threads of a stopped run's pool").isEmpty();
  }

  private static List<String> poolThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> POOL_THREAD.matcher(name).matches())
        .toList();
  }
}
