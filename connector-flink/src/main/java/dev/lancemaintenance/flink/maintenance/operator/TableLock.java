package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A lease on one table's maintenance, held as {@code _maintenance/cleanup.lock} in the table's own
 * storage, so that two jobs (or a job and a restarted copy of itself) never clean one table at once.
 *
 * <p>The file is created with Hadoop's create-if-absent ({@code overwrite = false}), atomic on HDFS
 * and local file systems and on object stores that support conditional writes. It holds the owner
 * and the lease's expiry: a holder that dies leaves a lock that expires, and the next run takes it
 * over by renaming the stale file aside (only one renamer wins) and creating its own. A run must
 * finish within its lease; the trigger chooses a lease longer than any expected run.
 */
public final class TableLock implements AutoCloseable {
  static final String LOCK_PATH = "_maintenance/cleanup.lock";

  private final FileSystem fs;
  private final Path lock;
  private final String owner;

  private TableLock(FileSystem fs, Path lock, String owner) {
    this.fs = fs;
    this.lock = lock;
    this.owner = owner;
  }

  /**
   * Takes the table's lock until {@code expiresAtMillis}, or returns empty when another owner holds
   * an unexpired lease.
   */
  public static Optional<TableLock> tryAcquire(
      TableLocation table, StorageConf conf, String owner, long nowMillis, long expiresAtMillis) {
    Path lock = new Path(table.resolve(LOCK_PATH));
    FileSystem fs = null;
    try {
      fs = FileSystem.newInstance(lock.toUri(), conf.toConfiguration());
      if (take(fs, lock, owner, nowMillis, expiresAtMillis)) {
        return Optional.of(new TableLock(fs, lock, owner));
      }
      fs.close();
      return Optional.empty();
    } catch (IOException e) {
      closeQuietlyAfterFailure(fs, e);
      throw new StorageException("lock", table.resolveRedacted(LOCK_PATH), e);
    }
  }

  private static boolean take(FileSystem fs, Path lock, String owner, long nowMillis, long expiresAtMillis)
      throws IOException {
    Optional<Lease> held = read(fs, lock);
    // Our own lease (left by an earlier attempt of this job) can be taken back at once.
    if (held.isPresent() && held.get().expiresAtMillis() > nowMillis && !held.get().owner().equals(owner)) {
      return false;
    }
    if (held.isPresent()) {
      // Stale: move it aside; if someone else moved it first, they are taking over, not us.
      Path aside = new Path(lock.getParent(), "cleanup.lock.expired-" + held.get().expiresAtMillis());
      if (!fs.rename(lock, aside)) {
        return false;
      }
      fs.delete(aside, false);
    }
    try (FSDataOutputStream out = fs.create(lock, false)) {
      out.write(new Lease(owner, expiresAtMillis).encode());
    } catch (FileAlreadyExistsException raced) {
      return false;
    }
    Optional<Lease> written = read(fs, lock);
    return written.isPresent() && written.get().owner().equals(owner);
  }

  private static void closeQuietlyAfterFailure(FileSystem fs, IOException failure) {
    if (fs == null) {
      return;
    }
    try {
      fs.close();
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  /** Releases the lease, if it is still ours. */
  @Override
  public void close() {
    try {
      Optional<Lease> held = read(fs, lock);
      if (held.isPresent() && held.get().owner().equals(owner)) {
        fs.delete(lock, false);
      }
      fs.close();
    } catch (IOException e) {
      throw new StorageException("unlock", lock.toString(), e);
    }
  }

  private static Optional<Lease> read(FileSystem fs, Path lock) throws IOException {
    try (FSDataInputStream in = fs.open(lock)) {
      return Optional.of(Lease.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    } catch (FileNotFoundException absent) {
      return Optional.empty();
    }
  }

  /** The lock file's content: {@code <owner>\n<expiry epoch millis>}. */
  record Lease(String owner, long expiresAtMillis) {
    byte[] encode() {
      return (owner + "\n" + expiresAtMillis + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static Lease decode(String text) {
      String[] lines = text.split("\n");
      if (lines.length < 2) {
        // A half-written lock (its writer died mid-write) is as good as expired.
        return new Lease("unknown", 0);
      }
      return new Lease(lines[0], Long.parseLong(lines[1].trim()));
    }
  }
}
