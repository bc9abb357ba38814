package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.stream.Stream;

/**
 * The crash matrix on the local engine ({@link CrashPoint.Child}, single-threaded so the frozen
 * request stops the whole run), and what only the local engine leaves: its spill folder, which the
 * rerun removes.
 */
class LocalCrashMatrixIT extends CrashMatrixContract {
  @Override
  protected Class<?> child() {
    return CrashPoint.Child.class;
  }

  @Override
  protected List<String> childArguments(CrashPoint point) {
    try {
      return List.of(Files.createDirectories(spills(point)).toString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Override
  protected void afterTheCrash(CrashPoint point) throws Exception {
    try (Stream<Path> left = Files.list(spills(point))) {
      // The spill is made when the first record goes to disk (the child spills every record) and
      // goes when the stages end, just before the lease is released.
      boolean spilled = point != CrashPoint.AFTER_TAKING_THE_LEASE && point != CrashPoint.BEFORE_RELEASING_THE_LEASE;
      assertThat(left.toList()).as("the killed run's spill folder").hasSize(spilled ? 1 : 0);
    }
  }

  @Override
  protected CleanupAction rerun(Path table, CrashPoint point, Clock clock) {
    return new LocalCleanupAction(TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
            clock)
        .spillDirectory(spills(point))
        .parallelism(4)
        .partitions(5)
        .sliceSize(2);
  }

  @Override
  protected void afterTheRerun(CrashPoint point) throws Exception {
    try (Stream<Path> left = Files.list(spills(point))) {
      assertThat(left.toList()).as("spill folders after the rerun (the dead run's removed)").isEmpty();
    }
  }

  private static Path spills(CrashPoint point) {
    return workDir().resolve("spills-" + point.name());
  }
}
