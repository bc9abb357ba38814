package dev.lancemaintenance.storage;

import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link TableStorage} that passes every call to another one. Test wrappers extend it and
 * override only the calls they watch or break, so the real store does the rest.
 */
public abstract class ForwardingTableStorage implements TableStorage {
  private final TableStorage delegate;

  protected ForwardingTableStorage(TableStorage delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  protected TableStorage delegate() {
    return delegate;
  }

  @Override
  public TableLocation location() {
    return delegate.location();
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    return delegate.listFiles(dir, recursive);
  }

  /**
   * Not forwarded: the interface's default lists through {@link #listFiles}, so a wrapper that
   * watches or breaks listings sees this one too. A wrapper that does not may forward it.
   */
  @Override
  public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
    return listFiles(dir, recursive);
  }

  @Override
  public Optional<FileEntry> withAttributes(FileEntry listed) {
    return delegate.withAttributes(listed);
  }

  @Override
  public TableStorage openOther(TableLocation other) {
    return delegate.openOther(other);
  }

  @Override
  public List<String> listDirectories(String dir) {
    return delegate.listDirectories(dir);
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    return delegate.read(path, offset, length);
  }

  @Override
  public long length(String path) {
    return delegate.length(path);
  }

  @Override
  public void write(String path, byte[] content) {
    delegate.write(path, content);
  }

  @Override
  public java.io.OutputStream create(String path) {
    return delegate.create(path);
  }

  @Override
  public boolean createIfAbsent(String path, byte[] content) {
    return delegate.createIfAbsent(path, content);
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    return delegate.deleteBatch(paths);
  }

  @Override
  public boolean requestsWaitOnNetwork() {
    return delegate.requestsWaitOnNetwork();
  }

  @Override
  public java.util.OptionalLong listingHorizonMillis() {
    return delegate.listingHorizonMillis();
  }

  @Override
  public List<FileEntry> filesWithPrefix(String prefix) {
    return delegate.filesWithPrefix(prefix);
  }

  @Override
  public int suggestedConcurrency() {
    return delegate.suggestedConcurrency();
  }

  @Override
  public int maxDeleteBatchSize() {
    return delegate.maxDeleteBatchSize();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
