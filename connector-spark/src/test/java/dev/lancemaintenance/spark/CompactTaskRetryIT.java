package dev.lancemaintenance.spark;

import dev.lancemaintenance.compaction.EngineCompactAction;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionTaskRunner;
import dev.lancemaintenance.compaction.CompactionWorker;
import dev.lancemaintenance.compaction.PlannedTask;
import dev.lancemaintenance.compaction.RewrittenTask;
import dev.lancemaintenance.compaction.SmallFragmentsTable;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction task killed after writing its files (before reporting them) is retried by Spark; the
 * run commits, the table reads as before, and the killed attempt's files are referenced by no
 * version.
 */
class CompactTaskRetryIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass("local[2,2]");

  @TempDir Path dir;

  @Test
  void aTaskKilledMidCompactionIsRetriedAndLeavesNoHalfWrittenFragmentReferenced() throws IOException {
    LanceTableFixture table = SmallFragmentsTable.write(dir.resolve("t"));
    TableContent before = SmallFragmentsTable.latestContent(table);
    List<String> filesBefore = table.listFiles();
    Path marker = dir.resolve("task-1-killed");

    CompactResult result =
        new EngineCompactAction(SmallFragmentsTable.compactionTable(table),
                new KilledOnceAfterWriting(SmallFragmentsTable.compactionTable(table), 1, marker.toString()),
                new SparkCompactionEngine(SPARK.session()))
            .policy(SmallFragmentsTable.SEVERAL_TASKS)
            .execute();

    assertThat(marker).as("the first attempt of task 1 was killed").exists();
    long abandoned = Long.parseLong(Files.readString(marker));
    assertThat(result.commits()).as("commits").isEqualTo(1);
    assertThat(SmallFragmentsTable.latestContent(table)).as("content at the latest version").isEqualTo(before);
    assertThat(ReadBack.snapshot(table.root()).unreadable()).as("versions that do not read").isEmpty();
    Set<String> referenced = SmallFragmentsTable.referencedByLatest(table);
    Set<String> unreferencedNewData = new TreeSet<>(table.listFiles());
    unreferencedNewData.removeAll(filesBefore);
    unreferencedNewData.removeIf(path -> !path.startsWith("data/"));
    unreferencedNewData.removeAll(referenced);
    assertThat(abandoned).as("files the killed attempt wrote").isPositive();
    assertThat(unreferencedNewData).as("new data files no version references").hasSize((int) abandoned);
    assertThat(table.listFiles()).as("files the latest version references").containsAll(
        referenced.stream().filter(path -> path.startsWith("data/")).toList());
  }

  /**
   * The real rewrite, but the first attempt of one task dies after writing its files; the marker
   * file (shared by every executor thread) records that and how many files were left behind.
   */
  private record KilledOnceAfterWriting(
      dev.lancemaintenance.compaction.CompactionTable table, int task, String marker) implements CompactionWorker {
    @Override
    public RewrittenTask rewrite(PlannedTask planned) {
      RewrittenTask done = new CompactionTaskRunner(table).rewrite(planned);
      if (planned.index() == task) {
        try {
          Files.writeString(Path.of(marker), String.valueOf(done.counters().filesAdded()),
              java.nio.file.StandardOpenOption.CREATE_NEW, java.nio.file.StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
          return done;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("killed " + planned + " after it wrote its files");
      }
      return done;
    }
  }
}
