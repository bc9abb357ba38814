package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A lease on one table's maintenance, held in the table's own storage under {@code _maintenance/},
 * so that two jobs (or two operators of one job) never clean one table at once.
 *
 * <p>The lock is a chain of numbered lease files, {@code cleanup.lease.<generation>}; the highest
 * generation says who holds the table and until when. To take the lock, a contender reads the
 * highest lease and, if it is released or expired, creates the next generation with
 * create-if-absent: of all contenders that read the same generation, exactly one creates the next.
 * Releasing creates one more generation that is already expired. No lease file is ever renamed,
 * overwritten or deleted while it is the highest, so a slow contender acting on a stale read can
 * never remove a lock someone else just took. Older generations are pruned on release; as a slow
 * contender may then re-create a pruned number, a new lease holds only if it is still the highest
 * generation right after its creation.
 *
 * <p>Create-if-absent is exact on HDFS ({@code overwrite = false}) and, through a hard link, on
 * local disks (Hadoop's local {@code create} checks and then creates, which two writers can race).
 * On object stores it is as strong as the store's conditional create. A lease that cannot be read
 * (its writer is still writing, or died mid-write) counts as held until {@link #UNREADABLE_GRACE_MILLIS}
 * after its modification time. A run must finish within its lease; the trigger chooses a lease
 * longer than any expected run.
 */
public final class TableLock implements AutoCloseable {
  static final String LOCK_DIR = "_maintenance";
  static final String LEASE_PREFIX = "cleanup.lease.";
  static final long UNREADABLE_GRACE_MILLIS = 60_000;

  private final FileSystem fs;
  private final Path dir;
  private final String owner;
  private final long generation;

  private TableLock(FileSystem fs, Path dir, String owner, long generation) {
    this.fs = fs;
    this.dir = dir;
    this.owner = owner;
    this.generation = generation;
  }

  /**
   * Takes the table's lock until {@code expiresAtMillis}, or returns empty when another owner holds
   * an unexpired lease (or won the race for the next one). An owner may take back its own unexpired
   * lease at once: that is an earlier attempt of the same operator, left behind by a failure.
   */
  public static Optional<TableLock> tryAcquire(
      TableLocation table, StorageConf conf, String owner, long nowMillis, long expiresAtMillis) {
    Path dir = new Path(table.resolve(LOCK_DIR));
    FileSystem fs = null;
    try {
      fs = FileSystem.newInstance(dir.toUri(), conf.toConfiguration());
      OptionalLong taken = take(fs, dir, new Lease(owner, expiresAtMillis), nowMillis);
      if (taken.isPresent()) {
        return Optional.of(new TableLock(fs, dir, owner, taken.getAsLong()));
      }
      fs.close();
      return Optional.empty();
    } catch (IOException e) {
      closeQuietlyAfterFailure(fs, e);
      throw new StorageException("lock", table.resolveRedacted(LOCK_DIR), e);
    }
  }

  private static OptionalLong take(FileSystem fs, Path dir, Lease wanted, long nowMillis) throws IOException {
    OptionalLong latest = latestGeneration(fs, dir);
    long next = 1;
    if (latest.isPresent()) {
      Optional<Lease> held = read(fs, leasePath(dir, latest.getAsLong()));
      if (held.isEmpty()) {
        // Pruned between listing and reading: a release just happened; try again next time.
        return OptionalLong.empty();
      }
      if (held.get().expiresAtMillis() > nowMillis && !held.get().owner().equals(wanted.owner())) {
        return OptionalLong.empty();
      }
      next = latest.getAsLong() + 1;
    }
    if (!createIfAbsent(fs, leasePath(dir, next), wanted.encode())) {
      return OptionalLong.empty();
    }
    // A release prunes the generations below it, so a contender that read a pruned lease before it
    // went can create that generation again, below the real head of the chain. Holding needs our
    // lease to be the head; if it is not, it is an orphan that the next release prunes.
    OptionalLong head = latestGeneration(fs, dir);
    return head.isPresent() && head.getAsLong() == next ? OptionalLong.of(next) : OptionalLong.empty();
  }

  /** Releases the lease by publishing an expired one after it, then prunes the older generations. */
  @Override
  public void close() {
    try {
      boolean released = createIfAbsent(fs, leasePath(dir, generation + 1), new Lease(owner, 0).encode());
      // Not released: our lease expired and someone took over; the chain is theirs now.
      if (released) {
        prune(generation + 1);
      }
      fs.close();
    } catch (IOException e) {
      throw new StorageException("unlock", leasePath(dir, generation).toString(), e);
    }
  }

  private void prune(long keep) throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      OptionalLong found = generationOf(status.getPath().getName());
      if (found.isPresent() && found.getAsLong() < keep) {
        fs.delete(status.getPath(), false);
      }
    }
  }

  private static OptionalLong latestGeneration(FileSystem fs, Path dir) throws IOException {
    if (!fs.exists(dir)) {
      return OptionalLong.empty();
    }
    OptionalLong latest = OptionalLong.empty();
    for (FileStatus status : fs.listStatus(dir)) {
      OptionalLong found = generationOf(status.getPath().getName());
      if (found.isPresent() && (latest.isEmpty() || found.getAsLong() > latest.getAsLong())) {
        latest = found;
      }
    }
    return latest;
  }

  private static OptionalLong generationOf(String fileName) {
    if (!fileName.startsWith(LEASE_PREFIX)) {
      return OptionalLong.empty();
    }
    String digits = fileName.substring(LEASE_PREFIX.length());
    if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(digits));
  }

  private static Path leasePath(Path dir, long generation) {
    return new Path(dir, LEASE_PREFIX + String.format("%020d", generation));
  }

  /** Creates {@code path} with {@code content} unless it exists; true when this call created it. */
  private static boolean createIfAbsent(FileSystem fs, Path path, byte[] content) throws IOException {
    if ("file".equals(fs.getScheme())) {
      return linkIfAbsent(path, content);
    }
    try (FSDataOutputStream out = fs.create(path, false)) {
      out.write(content);
      return true;
    } catch (org.apache.hadoop.fs.FileAlreadyExistsException raced) {
      return false;
    }
  }

  /** Local disks: write a private file, then hard-link it in place; link(2) fails if the name exists. */
  private static boolean linkIfAbsent(Path path, byte[] content) throws IOException {
    java.nio.file.Path target = Paths.get(path.toUri());
    Files.createDirectories(target.getParent());
    java.nio.file.Path staged = target.resolveSibling("staged-" + UUID.randomUUID());
    Files.write(staged, content);
    try {
      Files.createLink(target, staged);
      return true;
    } catch (FileAlreadyExistsException raced) {
      return false;
    } finally {
      Files.deleteIfExists(staged);
    }
  }

  private static Optional<Lease> read(FileSystem fs, Path lease) throws IOException {
    try (FSDataInputStream in = fs.open(lease)) {
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return Optional.of(Lease.decode(text).orElseGet(() -> unreadable(fs, lease)));
    } catch (FileNotFoundException absent) {
      return Optional.empty();
    }
  }

  private static Lease unreadable(FileSystem fs, Path lease) {
    try {
      return new Lease("unknown", fs.getFileStatus(lease).getModificationTime() + UNREADABLE_GRACE_MILLIS);
    } catch (IOException e) {
      return new Lease("unknown", Long.MAX_VALUE);
    }
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

  /** A lease file's content: {@code <owner>\n<expiry epoch millis>\n}; expiry 0 marks a release. */
  record Lease(String owner, long expiresAtMillis) {
    byte[] encode() {
      return (owner + "\n" + expiresAtMillis + "\n").getBytes(StandardCharsets.UTF_8);
    }

    static Optional<Lease> decode(String text) {
      String[] lines = text.split("\n");
      if (lines.length < 2 || !text.endsWith("\n")) {
        return Optional.empty();
      }
      try {
        return Optional.of(new Lease(lines[0], Long.parseLong(lines[1].trim())));
      } catch (NumberFormatException partial) {
        return Optional.empty();
      }
    }
  }
}
