package dev.lancemaintenance.format;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongPredicate;

/**
 * The opening reads of chosen manifests, started while the plan still lists {@code _versions/}: the
 * one home for "read manifests while the plan lists". Two choices use it, each known long before
 * the plan ends, from the key snapshot read beside the plan: the versions above the snapshot's end,
 * which the daily run decodes ({@link #above}; Lance's V2 names list newest first, so they are on
 * the listing's first page), and the versions the policy will expire, whose manifests a run that
 * does not list reads for the names it examines ({@link #versions}; the oldest, on the last page).
 * Each read needs only the manifest's listed name and length. On an object store they then wait on
 * the network beside the listing's later pages and the plan's work instead of after them.
 *
 * <p>Exact: bytes read early stand for a manifest only when the listing the mark decodes from lists
 * it with the identity the read was started from (path, length and modification time, the identity
 * the key snapshot and the ledger check: docs/ledger.md, section 12.6); that is, the read came after
 * the very listing entry the mark would have read from, as the mark's own read does, only sooner.
 * Anything else gives nothing and the manifest is read at its turn as before: a manifest the
 * listing lacks or lists with another length or time (a plan that listed again), a read that
 * failed or was not started (over the bounds below). A read that fails never fails the run by
 * itself: the read at its turn fails, or not, as it would have.
 *
 * <p>Memory: at most {@link #MANIFESTS} reads and {@link ManifestReadAhead#BYTES_AHEAD} bytes, the
 * first reads always; what the mark does not take is dropped when the run's ledger read-ahead closes.
 */
public final class ManifestsReadEarly implements AutoCloseable {
  /** At most this many manifests read early by one choice: a daily run's new (or expiring) versions are some tens. */
  public static final int MANIFESTS = 64;

  private static final ManifestsReadEarly NONE = new ManifestsReadEarly(null, CompletableFuture.completedFuture(OptionalLong.empty()), 0, 0);

  private final TableStorage storage;
  private final int maxManifests;
  private final long maxBytes;
  /** The listed entries seen before the choice was known, kept to be read once it is. */
  private final List<FileEntry> waiting = new ArrayList<>();
  /** The reads started, by path, with the listed entry each was started from. */
  private final Map<String, Started> started = new HashMap<>();
  /** Every read started, taken or not, to wait for at {@link #close}. */
  private final List<CompletableFuture<ManifestFile>> everyRead = new ArrayList<>();
  /** The paths of every read started: a path listed again (a plan that lists twice) is not read again. */
  private final Set<String> readPaths = new HashSet<>();
  /** Which versions are read; null until known, empty when nothing is to be read. */
  private Optional<LongPredicate> chosen;
  private long startedBytes;
  private boolean closed;

  private record Started(FileEntry listed, CompletableFuture<ManifestFile> read) {}

  ManifestsReadEarly(TableStorage storage, CompletableFuture<OptionalLong> bound, int maxManifests, long maxBytes) {
    this(storage, maxManifests, maxBytes, bound.thenApply(ManifestsReadEarly::above));
  }

  private ManifestsReadEarly(TableStorage storage, int maxManifests, long maxBytes, CompletableFuture<Optional<LongPredicate>> which) {
    this.storage = storage;
    this.maxManifests = maxManifests;
    this.maxBytes = maxBytes;
    which.whenComplete((known, failed) -> choiceKnown(failed == null && known != null ? known : Optional.empty()));
  }

  private static Optional<LongPredicate> above(OptionalLong bound) {
    return bound.isEmpty() ? Optional.empty() : Optional.of(version -> Long.compareUnsigned(version, bound.getAsLong()) > 0);
  }

  /**
   * Reads early, through {@code storage}, the committed manifests listed (given to {@link #listed})
   * whose version is above {@code bound} once it is known; none when it is empty or failed.
   */
  public static ManifestsReadEarly above(TableStorage storage, CompletableFuture<OptionalLong> bound) {
    return new ManifestsReadEarly(storage, bound, MANIFESTS, ManifestReadAhead.BYTES_AHEAD);
  }

  /**
   * Reads early, through {@code storage}, the committed manifests listed whose version {@code which}
   * accepts once it is known (at most {@value #MANIFESTS}, so choose as few); none when it is empty
   * or failed.
   */
  public static ManifestsReadEarly versions(TableStorage storage, CompletableFuture<Optional<LongPredicate>> which) {
    return new ManifestsReadEarly(storage, MANIFESTS, ManifestReadAhead.BYTES_AHEAD, which);
  }

  /** Reads nothing early. */
  public static ManifestsReadEarly none() {
    return NONE;
  }

  /** An entry of a {@code _versions/} listing, as the listing gives it; never throws. */
  public void listed(FileEntry entry) {
    if (this == NONE || !entry.attributesRead()) {
      return;
    }
    synchronized (this) {
      if (closed) {
        return;
      }
      if (chosen == null) {
        waiting.add(entry);
      } else {
        startIfChosen(entry);
      }
    }
  }

  private synchronized void choiceKnown(Optional<LongPredicate> known) {
    chosen = known;
    if (!closed) {
      waiting.forEach(this::startIfChosen);
    }
    waiting.clear();
  }

  private void startIfChosen(FileEntry entry) {
    // Bounded by every read started, taken or not: a read the mark took still holds its bytes.
    if (chosen.isEmpty() || everyRead.size() >= maxManifests || readPaths.contains(entry.path())) {
      return;
    }
    // Located as the plan's listing locates it; a name it would refuse is the listing's to raise.
    Optional<ManifestLocation> committed;
    try {
      committed = VersionListing.committedManifest(entry);
    } catch (RuntimeException e) {
      return;
    }
    if (committed.isEmpty() || !chosen.get().test(committed.get().version())) {
      return;
    }
    ManifestLocation location = committed.get();
    long length = ManifestReadAhead.openingReadLength(entry.size());
    if (!everyRead.isEmpty() && startedBytes + length > maxBytes) {
      return;
    }
    CompletableFuture<ManifestFile> read = DaemonThreads.beside("lance-manifest-early", () -> ManifestFile.open(storage, location));
    started.put(entry.path(), new Started(entry, read));
    everyRead.add(read);
    readPaths.add(entry.path());
    startedBytes += length;
  }

  /**
   * The manifest at {@code location} as read early, when it was read from an entry with the same
   * path, length and modification time: a read that may still be in flight and gives null if it
   * failed (then read it at its turn, which fails or not as it would have). Null when there is no
   * such read. Each read is given once.
   */
  CompletableFuture<ManifestFile> take(ManifestLocation location) {
    Started read;
    synchronized (this) {
      read = started.remove(location.path());
    }
    if (read == null || read.listed().size() != location.size()
        || read.listed().modificationTimeMillis() != location.modificationTimeMillis()) {
      return null;
    }
    return read.read().exceptionally(failed -> null);
  }

  /** Drops what was not taken and waits for the reads still in flight, so that none outlives the storage; never throws. */
  @Override
  public void close() {
    List<CompletableFuture<ManifestFile>> reads;
    synchronized (this) {
      closed = true;
      waiting.clear();
      started.clear();
      reads = List.copyOf(everyRead);
    }
    reads.forEach(read -> read.exceptionally(failed -> null).join());
  }
}
