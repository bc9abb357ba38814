package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link TableStorage} that counts the bytes read through it. Latency for the object-store case
 * is added on the wire by {@link LatencyProxy}, where the SDK pays it too; a wrapper here could
 * only slow down our own engine, and would miss the requests the s3a client makes on its own.
 */
final class InstrumentedStorage extends ForwardingTableStorage {
  private final AtomicLong bytesRead;

  private InstrumentedStorage(TableStorage inner, AtomicLong bytesRead) {
    super(inner);
    this.bytesRead = bytesRead;
  }

  /** Wraps every storage {@code factory} opens; {@code bytesRead} is shared, so in-JVM engines only. */
  static TableStorageFactory factory(TableStorageFactory factory, AtomicLong bytesRead) {
    return location -> new InstrumentedStorage(factory.open(location), bytesRead);
  }

  /** Forwarded: only reads are counted, so the store's own listing is what gets measured. */
  @Override
  public Iterator<FileEntry> listFilesDeferringAttributes(String dir, boolean recursive) {
    return delegate().listFilesDeferringAttributes(dir, recursive);
  }

  @Override
  public byte[] read(String path, long offset, int length) {
    byte[] bytes = super.read(path, offset, length);
    bytesRead.addAndGet(bytes.length);
    return bytes;
  }

  /** Forwarded whole, so that the store's one-request read of a whole file is what gets measured. */
  @Override
  public byte[] readFully(String path) {
    byte[] bytes = delegate().readFully(path);
    bytesRead.addAndGet(bytes.length);
    return bytes;
  }
}
