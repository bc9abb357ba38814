package dev.lancemaintenance.format;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Scans a sequence of manifests in order while the opening reads of the next ones are already in
 * flight: on an object store, manifests decoded one after the other cost one round trip each in a
 * row, read ahead they cost about one for the lot. Only the reads run ahead, on threads of their
 * own; decoding stays on the caller's thread, in the sequence's order, with the caller's scanner
 * (which caches across consecutive manifests and is not thread-safe), so every manifest is scanned
 * exactly as {@link ManifestReader#scan} scans it, and a manifest that fails (missing, corrupt,
 * unsupported) fails at its turn with the same exception, after the ones before it.
 *
 * <p>Memory: the opening read of a manifest is its last {@value ManifestFile#TAIL_READ} bytes at
 * most, the whole file for most; reads are started while fewer than {@code inFlight} are waiting to
 * be scanned and their bytes stay within {@link #BYTES_AHEAD} (one read at least, however large),
 * so a read-ahead holds at most that many bytes beyond the manifest being scanned. A section that
 * begins before the tail is read, as without read-ahead, when the scan reaches it.
 *
 * <p>A manifest whose opening read the run started earlier, while its plan listed ({@link
 * ManifestsReadEarly}), is taken from there when the read stands for the listed manifest, and
 * read here otherwise: either way the same bytes of the same listed file are scanned.
 */
public final class ManifestReadAhead implements AutoCloseable {
  /** The bytes read ahead at most: some 160 manifests of 200 KB (2,000 fragments), 32 at 1 MB. */
  static final long BYTES_AHEAD = 32L * 1024 * 1024;

  private final TableStorage storage;
  private final List<ManifestLocation> manifests;
  private final int inFlight;
  private final long bytesAhead;
  /** Reads the run started before this sequence, taken in place of this one's own when they stand for its manifests. */
  private final ManifestsReadEarly early;
  private final Queue<Future<ManifestFile>> started = new ArrayDeque<>();
  /** Null when reads are not started ahead (one in flight): each is read at its turn. */
  private final ExecutorService readers;
  private int nextToStart;
  private int nextToScan;
  private long startedBytes;

  ManifestReadAhead(TableStorage storage, List<ManifestLocation> manifests, int inFlight, long bytesAhead) {
    this(storage, manifests, inFlight, bytesAhead, ManifestsReadEarly.none());
  }

  ManifestReadAhead(
      TableStorage storage, List<ManifestLocation> manifests, int inFlight, long bytesAhead, ManifestsReadEarly early) {
    if (inFlight < 1 || bytesAhead < 1) {
      throw new IllegalArgumentException("read-ahead needs at least one read and one byte: " + inFlight + ", " + bytesAhead);
    }
    this.storage = storage;
    this.manifests = List.copyOf(manifests);
    this.inFlight = Math.min(inFlight, Math.max(1, this.manifests.size()));
    this.bytesAhead = bytesAhead;
    this.early = early;
    this.readers = this.inFlight > 1 ? Executors.newFixedThreadPool(this.inFlight, DaemonThreads.named("lance-manifest-read")) : null;
  }

  /**
   * Reads {@code manifests} (the order they are scanned in) ahead with a {@code 1/shares} share of
   * the requests in flight the store suggests ({@link TableStorage#suggestedConcurrency}: 64 on an
   * object store, a few on local disk) and of {@link #BYTES_AHEAD}: {@code shares} read-aheads at
   * once keep about what one alone would, at least one read each (then without threads of its own,
   * each manifest read at its turn).
   */
  public static ManifestReadAhead share(TableStorage storage, List<ManifestLocation> manifests, int shares) {
    return share(storage, manifests, shares, ManifestsReadEarly.none());
  }

  /**
   * As {@link #share(TableStorage, List, int)}, taking the reads {@code early} started for the
   * manifests of the sequence instead of reading them again ({@link ManifestsReadEarly#take}).
   */
  public static ManifestReadAhead share(
      TableStorage storage, List<ManifestLocation> manifests, int shares, ManifestsReadEarly early) {
    if (shares < 1) {
      throw new IllegalArgumentException("shares must be > 0: " + shares);
    }
    return new ManifestReadAhead(storage, manifests,
        Math.max(1, storage.suggestedConcurrency() / shares), Math.max(1, BYTES_AHEAD / shares), early);
  }

  /** How many manifests the sequence holds. */
  public int size() {
    return manifests.size();
  }

  /**
   * Scans the next manifest of the sequence with {@code scanner}, as {@link ManifestReader#scan}
   * does; throws {@link CancellationException} when the calling thread is interrupted.
   */
  public ScannedManifest scanNext(ReferenceScanner scanner) {
    if (Thread.currentThread().isInterrupted()) {
      throw new CancellationException("cleanup stopped: another task of the run failed");
    }
    if (nextToScan >= manifests.size()) {
      throw new IllegalStateException("all " + manifests.size() + " manifests were scanned");
    }
    ManifestLocation location = manifests.get(nextToScan++);
    ManifestFile file = readers == null ? openedAtItsTurn(location) : opened(location);
    return ManifestReader.scan(storage, file, scanner);
  }

  /** The manifest read early, or read now. */
  private ManifestFile openedAtItsTurn(ManifestLocation location) {
    CompletableFuture<ManifestFile> readEarly = early.take(location);
    ManifestFile file = readEarly == null ? null : readEarly.join();
    return file != null ? file : ManifestFile.open(storage, location);
  }

  private ManifestFile opened(ManifestLocation location) {
    startReads();
    Future<ManifestFile> read = started.remove();
    startedBytes -= openingReadLength(location);
    try {
      ManifestFile file = read.get();
      // Null only from an early read that failed: read at its turn, failing or not as without it.
      return file != null ? file : ManifestFile.open(storage, location);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException("cleanup stopped: another task of the run failed");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      startReads();
    }
  }

  /** Starts the reads that fit: the next one always when none waits, else within both bounds. */
  private void startReads() {
    while (nextToStart < manifests.size() && started.size() < inFlight) {
      ManifestLocation location = manifests.get(nextToStart);
      long length = openingReadLength(location);
      if (!started.isEmpty() && startedBytes + length > bytesAhead) {
        return;
      }
      CompletableFuture<ManifestFile> readEarly = early.take(location);
      started.add(readEarly != null ? readEarly : readers.submit(() -> ManifestFile.open(storage, location)));
      startedBytes += length;
      nextToStart++;
    }
  }

  private static long openingReadLength(ManifestLocation location) {
    return openingReadLength(location.size());
  }

  /** The bytes the opening read of a manifest of {@code size} bytes takes. */
  static long openingReadLength(long size) {
    return Math.min(Math.max(size, 0), ManifestFile.TAIL_READ);
  }

  /** Stops the reads still in flight (a failed or abandoned sequence) and their threads. */
  @Override
  public void close() {
    if (readers != null) {
      readers.shutdownNow();
    }
  }
}
