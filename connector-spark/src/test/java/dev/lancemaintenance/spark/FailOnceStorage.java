package dev.lancemaintenance.spark;

import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;

/**
 * Hadoop storage whose first delete batch in each Spark task (stage, partition) deletes half of its
 * files and then dies, as an executor lost mid-request would. Which tasks already failed is kept in
 * marker files under a directory, not in static state, so it holds across task attempts and threads.
 */
final class FailOnceStorage extends ForwardingTableStorage {
  private final Path markers;

  FailOnceStorage(TableStorage delegate, Path markers) {
    super(delegate);
    this.markers = markers;
  }

  static TableStorageFactory factory(Path markers) {
    return new Factory(markers.toString());
  }

  private record Factory(String markers) implements TableStorageFactory {
    @Override
    public TableStorage open(TableLocation location) {
      return new FailOnceStorage(new HadoopTableStorage(location, StorageConf.defaults()), Paths.get(markers));
    }
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    TaskContext task = TaskContext.get();
    Path marker = markers.resolve("stage-" + task.stageId() + "-partition-" + task.partitionId());
    if (Files.exists(marker)) {
      return delegate().deleteBatch(paths);
    }
    List<DeleteFailure> failures = new ArrayList<>(delegate().deleteBatch(paths.subList(0, (paths.size() + 1) / 2)));
    try {
      Files.createFile(marker);
    } catch (FileAlreadyExistsException e) {
      return failures;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException(
        "Injected failure in task attempt " + task.attemptNumber() + " after deleting " + (paths.size() + 1) / 2
            + " of " + paths.size() + " files (" + failures.size() + " failed)");
  }
}
