package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TableStorage} that counts the bytes read through it and, for the object-store case, adds
 * a fixed latency to every request (the kernel here has no netem; a wrapper is the portable way).
 * A listing costs one request per 1,000 entries, as an S3 list page does.
 */
final class InstrumentedStorage extends ForwardingTableStorage {
  private static final int LIST_PAGE = 1000;

  private final Duration latency;
  private final AtomicLong bytesRead;

  private InstrumentedStorage(TableStorage inner, Duration latency, AtomicLong bytesRead) {
    super(inner);
    this.latency = latency;
    this.bytesRead = bytesRead;
  }

  /** Wraps every storage {@code factory} opens; {@code bytesRead} is shared, so in-JVM engines only. */
  static TableStorageFactory factory(TableStorageFactory factory, Duration latency, AtomicLong bytesRead) {
    return location -> new InstrumentedStorage(factory.open(location), latency, bytesRead);
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    pause();
    Iterator<FileEntry> files = super.listFiles(dir, recursive);
    return new Iterator<>() {
      private long served;

      @Override
      public boolean hasNext() {
        return files.hasNext();
      }

      @Override
      public FileEntry next() {
        if (++served % LIST_PAGE == 0) {
          pause();
        }
        return files.next();
      }
    };
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    pause();
    byte[] bytes = super.read(path, offset, length);
    bytesRead.addAndGet(bytes.length);
    return bytes;
  }

  @Override
  public long length(String path) {
    pause();
    return super.length(path);
  }

  @Override
  public void write(String path, byte[] content) {
    pause();
    super.write(path, content);
  }

  @Override
  public List<DeleteFailure> deleteBatch(List<String> paths) {
    pause();
    return super.deleteBatch(paths);
  }

  private void pause() {
    if (latency.isZero()) {
      return;
    }
    try {
      Thread.sleep(latency.toMillis(), latency.toNanosPart() % 1_000_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while simulating store latency", e);
    }
  }
}
