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

/**
 * The opening reads of the manifests above a version bound, started while the plan still lists
 * {@code _versions/}: the daily run from the key snapshot decodes the versions above the snapshot's
 * end, and their reads need only that end and each manifest's listed name and length, both known
 * long before the plan ends (the snapshot is read beside the plan, and Lance's V2 names list newest
 * first, so the new manifests are on the listing's first page). On an object store they then wait on
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
  /** At most this many manifests read early: a daily run's new versions are some tens. */
  static final int MANIFESTS = 64;

  private static final ManifestsReadEarly NONE = new ManifestsReadEarly(null, CompletableFuture.completedFuture(OptionalLong.empty()), 0, 0);

  private final TableStorage storage;
  private final int maxManifests;
  private final long maxBytes;
  /** The listed entries seen before the bound was known, kept to be read once it is. */
  private final List<FileEntry> waiting = new ArrayList<>();
  /** The reads started, by path, with the listed entry each was started from. */
  private final Map<String, Started> started = new HashMap<>();
  /** Every read started, taken or not, to wait for at {@link #close}. */
  private final List<CompletableFuture<ManifestFile>> everyRead = new ArrayList<>();
  /** The paths of every read started: a path listed again (a plan that lists twice) is not read again. */
  private final Set<String> readPaths = new HashSet<>();
  /** Null until the bound is known; empty when nothing is to be read. */
  private OptionalLong bound;
  private long startedBytes;
  private boolean closed;

  private record Started(FileEntry listed, CompletableFuture<ManifestFile> read) {}

  ManifestsReadEarly(TableStorage storage, CompletableFuture<OptionalLong> bound, int maxManifests, long maxBytes) {
    this.storage = storage;
    this.maxManifests = maxManifests;
    this.maxBytes = maxBytes;
    bound.whenComplete((known, failed) -> boundKnown(failed == null ? known : OptionalLong.empty()));
  }

  /**
   * Reads early, through {@code storage}, the committed manifests listed (given to {@link #listed})
   * whose version is above {@code bound} once it is known; none when it is empty or failed.
   */
  public static ManifestsReadEarly above(TableStorage storage, CompletableFuture<OptionalLong> bound) {
    return new ManifestsReadEarly(storage, bound, MANIFESTS, ManifestReadAhead.BYTES_AHEAD);
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
      if (bound == null) {
        waiting.add(entry);
      } else {
        startIfAbove(entry);
      }
    }
  }

  private synchronized void boundKnown(OptionalLong known) {
    bound = known;
    if (!closed) {
      waiting.forEach(this::startIfAbove);
    }
    waiting.clear();
  }

  private void startIfAbove(FileEntry entry) {
    // Bounded by every read started, taken or not: a read the mark took still holds its bytes.
    if (bound.isEmpty() || everyRead.size() >= maxManifests || readPaths.contains(entry.path())) {
      return;
    }
    // Located as the plan's listing locates it; a name it would refuse is the listing's to raise.
    Optional<ManifestLocation> committed;
    try {
      committed = VersionListing.committedManifest(entry);
    } catch (RuntimeException e) {
      return;
    }
    if (committed.isEmpty() || Long.compareUnsigned(committed.get().version(), bound.getAsLong()) <= 0) {
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
