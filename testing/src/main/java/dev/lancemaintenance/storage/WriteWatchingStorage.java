package dev.lancemaintenance.storage;

import java.io.OutputStream;
import java.util.List;

/**
 * A storage that tells {@link #written} of every path it writes ({@code write}, {@code create},
 * {@code createIfAbsent}) or deletes, before the request goes: for tests of what a run writes, and
 * when.
 */
public abstract class WriteWatchingStorage extends ForwardingTableStorage {
  protected WriteWatchingStorage(TableStorage delegate) {
    super(delegate);
  }

  /** Called with each path written or deleted, before the request. */
  protected abstract void written(String path);

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    written(path);
    return super.createIfAbsent(path, content);
  }

  @Override
  public OutputStream create(String path) {
    written(path);
    return super.create(path);
  }

  @Override
  public void write(String path, byte[] content) {
    written(path);
    super.write(path, content);
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    paths.forEach(this::written);
    return super.deleteBatch(paths);
  }
}
