package dev.lancemaintenance.flink;

import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * Hadoop storage whose first delete batch, across every subtask and attempt, deletes its files and
 * then fails the subtask, as a task killed between a delete and its bookkeeping would. A marker file outside the
 * table records that the failure happened (subtasks share no memory), so the retry succeeds.
 */
public final class FailingOnceStorage extends ForwardingTableStorage {
  private final Path marker;

  private FailingOnceStorage(TableStorage delegate, Path marker) {
    super(delegate);
    this.marker = marker;
  }

  /** A factory whose storage fails once; {@code marker} must not exist yet. */
  public static TableStorageFactory factory(Path marker) {
    String markerPath = marker.toString();
    return location ->
        new FailingOnceStorage(new HadoopTableStorage(location, StorageConf.defaults()), Paths.get(markerPath));
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    List<DeleteFailure> failures = delegate().deleteBatch(paths);
    if (!claimFailure()) {
      return failures;
    }
    throw new StorageException("delete", paths.get(0), new IOException("injected: subtask dies mid-batch"));
  }

  private boolean claimFailure() {
    try {
      Files.createFile(marker);
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write the failure marker " + marker, e);
    }
  }

  /** Whether the injected failure happened. */
  public static boolean failed(Path marker) {
    return Files.exists(marker);
  }
}
