package dev.lancemaintenance.ledger;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestsReadEarly;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * A dataset's ledger read and folded ({@link Ledger#read}) on a thread of its own, started before
 * the plan lists {@code _versions/}: the read needs the dataset alone, not the listing, so the two
 * go side by side instead of one after the other (on local disk the fold is most of the mark's Java
 * time; on an object store the ledger's requests leave the row of round trips).
 *
 * <p>Exact: what the run does with the ledger is the same whenever it was read. The read is of
 * immutable files, checked whole (checksums, fingerprint, the fold continuing); the one step that
 * needs both the ledger and the listing, the identity check ({@link IncrementalMark#mismatch}: every
 * listed manifest at or below the ledger's end is the very file summarised), runs after the plan,
 * against the plan's own listing, as before. A manifest committed after the read is above the
 * ledger's end and decoded; one replaced or touched after it fails the identity check and the run
 * marks in full ({@code IncrementalCleanupIT.aLedgerReadBeforeThePlanIsCheckedAgainstThePlansListing}).
 * A commit by another writer between the read and the run's own commit makes the latter lose its
 * create-if-absent, as it would have after a read in line (the run holds the table lease, so that is
 * an accident either way).
 */
public final class LedgerReadAhead implements AutoCloseable {
  private static final LedgerReadAhead NONE = new LedgerReadAhead(null, Optional.empty(), ManifestsReadEarly.none());

  /** The fingerprint of the ledger read (table identity and dataset): the one it may stand for. */
  private final String fingerprint;
  /** What the read's thread found; none when nothing was started. */
  private final Optional<CompletableFuture<Ahead>> reading;
  /** The reads of the manifests above the key snapshot's end, begun as the plan lists them; none unless on an object store. */
  private final ManifestsReadEarly newManifests;
  /** The listing of the ledger's directory alone, before anything is read from it; none when nothing was started. */
  private final Optional<CompletableFuture<LedgerDirectory>> directory;

  /**
   * What the read's thread found: the one listing of the ledger's directory, and from it the ledger
   * read, or the newest key snapshot read instead (a run that decides from it needs no ledger) and
   * the ledger's head commit, which that run's append continues ({@link LedgerHead}).
   */
  private record Ahead(LedgerDirectory listed, Optional<LedgerRead> ledger, Optional<KeySnapshotFile.Read> keySnapshot,
      Optional<CompletableFuture<LedgerHead>> head, Optional<CompletableFuture<UnlistedRecord.Read>> unlistedRecord) {
    Ahead(LedgerDirectory listed, LedgerRead ledger) {
      this(listed, Optional.of(ledger), Optional.empty(), Optional.empty(), Optional.empty());
    }
  }

  private LedgerReadAhead(String fingerprint, Optional<CompletableFuture<Ahead>> reading) {
    this(fingerprint, reading, ManifestsReadEarly.none());
  }

  private LedgerReadAhead(String fingerprint, Optional<CompletableFuture<Ahead>> reading, ManifestsReadEarly newManifests) {
    this(fingerprint, reading, newManifests, reading.map(read -> read.thenApply(Ahead::listed)));
  }

  private LedgerReadAhead(String fingerprint, Optional<CompletableFuture<Ahead>> reading, ManifestsReadEarly newManifests,
      Optional<CompletableFuture<LedgerDirectory>> directory) {
    this.fingerprint = fingerprint;
    this.reading = reading;
    this.newManifests = newManifests;
    this.directory = directory;
  }

  /**
   * Starts reading {@code dataset}'s ledger through {@code storage} when {@code mode} reads it (not
   * {@link MarkMode#FULL}); close it before {@code storage}. The ledger's directory is listed once,
   * and the expiry records' names come from the same listing ({@link #expiryRecordTasks}).
   */
  public static LedgerReadAhead start(TableStorage storage, DatasetRef dataset, MarkMode mode, Clock clock) {
    if (mode == MarkMode.FULL) {
      return NONE;
    }
    Objects.requireNonNull(dataset, "dataset");
    Ledger ledger = new Ledger(storage, dataset, clock);
    return new LedgerReadAhead(ledger.fingerprint(), Optional.of(DaemonThreads.beside("lance-ledger-read", () -> {
      LedgerDirectory listed = LedgerDirectory.list(storage, dataset);
      return new Ahead(listed, ledger.read(listed));
    })));
  }

  /**
   * As {@link #start}, except that an incremental run of a dataset with a key snapshot reads the
   * snapshot ahead instead of the ledger: the local engine's daily run decides from the snapshot and
   * never needs the ledger ({@link KeySnapshotMark}). One listing of the ledger's directory, on the
   * read's own thread beside the plan, serves the snapshot, the ledger and the expiry records; a run
   * whose snapshot then proves unusable reads the ledger in line, after the plan, from that listing,
   * which is as exact ({@link LedgerDirectory}). The snapshot's run also reads the ledger's head
   * commit, beside the snapshot (the mark waits for the snapshot alone), for its append at the
   * run's end: a round trip out of the run's tail ({@link LedgerHead} says why that is exact).
   */
  public static LedgerReadAhead startUnlessKeySnapshot(TableStorage storage, DatasetRef dataset, MarkMode mode, Clock clock) {
    return startUnlessKeySnapshot(storage, dataset, mode, clock, false);
  }

  /**
   * As {@link #startUnlessKeySnapshot(TableStorage, DatasetRef, MarkMode, Clock)}; a run that may
   * examine names instead of listing ({@code readsUnlistedRecord}: {@link ListingSkip}) also reads
   * the newest record of the last listing ({@link UnlistedRecord}), when the directory holds one,
   * beside the key snapshot, instead of after the mark: an immutable file from the same listing of
   * the directory, so the same bytes whenever they are read.
   */
  public static LedgerReadAhead startUnlessKeySnapshot(TableStorage storage, DatasetRef dataset, MarkMode mode, Clock clock,
      boolean readsUnlistedRecord) {
    if (mode != MarkMode.INCREMENTAL) {
      return start(storage, dataset, mode, clock);
    }
    Objects.requireNonNull(dataset, "dataset");
    Ledger ledger = new Ledger(storage, dataset, clock);
    CompletableFuture<LedgerDirectory> directory = new CompletableFuture<>();
    CompletableFuture<Ahead> reading = DaemonThreads.beside("lance-ledger-read", () -> {
      LedgerDirectory listed;
      try {
        listed = LedgerDirectory.list(storage, dataset);
      } catch (RuntimeException | Error e) {
        directory.completeExceptionally(e);
        throw e;
      }
      directory.complete(listed);
      if (listed.keySnapshots().isEmpty()) {
        return new Ahead(listed, ledger.read(listed));
      }
      CompletableFuture<LedgerHead> head = DaemonThreads.beside("lance-ledger-head", () -> ledger.head(listed));
      Optional<CompletableFuture<UnlistedRecord.Read>> unlistedRecord = readsUnlistedRecord && !listed.unlistedRecords().isEmpty()
          ? Optional.of(DaemonThreads.beside("lance-unlisted-record", () -> UnlistedRecord.readNewest(storage, listed, ledger.fingerprint())))
          : Optional.empty();
      try {
        KeySnapshotFile.Read keySnapshot = KeySnapshotFile.readNewest(storage, listed, ledger.fingerprint());
        return new Ahead(listed, Optional.empty(), Optional.of(keySnapshot), Optional.of(head), unlistedRecord);
      } catch (RuntimeException | Error e) {
        head.exceptionally(failed -> null).join(); // close() waits for what it can see only
        unlistedRecord.ifPresent(read -> read.exceptionally(failed -> null).join());
        throw e;
      }
    });
    // On an object store the mark's new manifests (above the snapshot's end) are read as the plan
    // lists them, beside its later pages and work (ManifestsReadEarly says why that is exact); on a
    // local disk a read costs no wait worth moving. Which are new is foretold from the directory's
    // listing (newManifestsAbove), so the reads do not wait for the snapshot's GET and decoding.
    ManifestsReadEarly newManifests = storage.requestsWaitOnNetwork()
        ? ManifestsReadEarly.above(storage, directory.thenCompose(listed -> newManifestsAbove(listed, reading)))
        : ManifestsReadEarly.none();
    return new LedgerReadAhead(ledger.fingerprint(), Optional.of(reading), newManifests, Optional.of(directory));
  }

  /**
   * Whether the ledger's directory, as listed ahead, holds a record of the last listing ({@link
   * UnlistedRecord}): waits for that listing only, not for what is read from it. False when nothing
   * was listed ahead or the listing failed (the run then lists, as without a record).
   */
  public boolean holdsUnlistedRecord() {
    return directory.map(listed -> listed.handle((done, failed) -> done != null && !done.unlistedRecords().isEmpty()).join())
        .orElse(false);
  }

  /** The newest record of the last listing, from the listing taken ahead; unusable when nothing was listed ahead. */
  UnlistedRecord.Read unlistedRecordOf(TableStorage storage, DatasetRef dataset, String fingerprint) {
    return ahead(fingerprint, dataset)
        .map(ahead -> ahead.unlistedRecord().map(DaemonThreads::join)
            .orElseGet(() -> UnlistedRecord.readNewest(storage, ahead.listed(), fingerprint)))
        .orElseGet(() -> UnlistedRecord.Read.unusable("the ledger's directory was not listed ahead"));
  }

  /**
   * The version above which the daily run's manifests are new, as soon as it can be told: the
   * newest segment's end from the directory's listing alone, one round trip and the snapshot's
   * decoding before the snapshot's own end is known (in the traces of stop 35's and stop 36's daily
   * runs the new manifests' reads went out 150-275 ms after that listing's answer, docs/benchmarks.md,
   * "Stop 36"); the snapshot's end, as
   * before, when no segment is listed; empty when the directory holds no key snapshot (the run reads
   * the ledger). Exact whatever it says: a read begun early stands for a manifest only when the
   * plan lists that very file, and the mark reads at its turn every manifest it needs that was not
   * read early ({@link ManifestsReadEarly}); a forecast too high (a segment committed without its
   * snapshot) leaves some new manifests to the mark's own reads, one too low reads a few manifests
   * the mark does not take (at most {@link ManifestsReadEarly#MANIFESTS}).
   */
  private static CompletableFuture<OptionalLong> newManifestsAbove(LedgerDirectory listed, CompletableFuture<Ahead> reading) {
    if (listed.keySnapshots().isEmpty()) {
      return CompletableFuture.completedFuture(OptionalLong.empty());
    }
    OptionalLong foretold = listed.newestSegmentEnd();
    return foretold.isPresent() ? CompletableFuture.completedFuture(foretold) : reading.thenApply(LedgerReadAhead::keySnapshotEnd);
  }

  /** The end of the key snapshot read ahead; empty when none was read. */
  private static OptionalLong keySnapshotEnd(Ahead ahead) {
    return ahead.keySnapshot().flatMap(KeySnapshotFile.Read::snapshot)
        .map(snapshot -> OptionalLong.of(snapshot.endVersion()))
        .orElse(OptionalLong.empty());
  }

  /**
   * The reads of the manifests above the key snapshot's end, begun as the plan lists them: give
   * the plan's listing to it ({@link ManifestsReadEarly#listed}) and the mark's decoding takes what
   * stands for the manifests it decodes. Reads nothing unless this read ahead a key snapshot on an
   * object store.
   */
  public ManifestsReadEarly newManifests() {
    return newManifests;
  }

  /** Nothing read ahead: the mark reads the ledger in line, after the plan. */
  public static LedgerReadAhead none() {
    return NONE;
  }

  /** The read started for {@code ledger}'s table and dataset, or {@code ledger} read now when none was (or it was skipped). */
  LedgerRead readOf(Ledger ledger) {
    return ahead(ledger.fingerprint(), ledger.dataset())
        .map(ahead -> ahead.ledger().orElseGet(() -> ledger.read(ahead.listed())))
        .orElseGet(ledger::read);
  }

  /** The dataset's newest key snapshot, read ahead or from the listing taken ahead; read now when nothing was started. */
  KeySnapshotFile.Read keySnapshotOf(TableStorage storage, DatasetRef dataset, String fingerprint) {
    return ahead(fingerprint, dataset)
        .map(ahead -> ahead.keySnapshot().orElseGet(() -> KeySnapshotFile.readNewest(storage, ahead.listed(), fingerprint)))
        .orElseGet(() -> KeySnapshotFile.readNewest(storage, dataset, fingerprint));
  }

  /** The mark tasks of the dataset's expiry records, from the listing taken ahead; listed now when nothing was started. */
  List<MarkTask> expiryRecordTasks(TableStorage storage, DatasetRef dataset) {
    ExpiryRecords records = new ExpiryRecords(storage, dataset);
    String ours = Ledger.fingerprint(storage.location().identity(), dataset);
    return ahead(ours, dataset).map(ahead -> records.markTasks(ahead.listed())).orElseGet(records::markTasks);
  }

  /** The listing of the dataset's ledger directory taken ahead, when one was. */
  Optional<LedgerDirectory> listingOf(DatasetRef dataset, String fingerprint) {
    return ahead(fingerprint, dataset).map(Ahead::listed);
  }

  /** The ledger's head commit read ahead for the dataset's append, when it was. */
  Optional<LedgerHead> headOf(DatasetRef dataset, String fingerprint) {
    return ahead(fingerprint, dataset).flatMap(Ahead::head).map(DaemonThreads::join);
  }

  /** What was read ahead, when something was started; only for the table and dataset it was started for. */
  private Optional<Ahead> ahead(String wanted, DatasetRef dataset) {
    if (reading.isEmpty()) {
      return Optional.empty();
    }
    if (!fingerprint.equals(wanted)) {
      throw new IllegalArgumentException("the ledger was read ahead for another table or dataset than "
          + dataset + " (fingerprint " + fingerprint + ", this one " + wanted + ")");
    }
    return Optional.of(DaemonThreads.join(reading.get()));
  }

  /** Waits for a read still under way, so that none outlives the run's storage; never throws. */
  @Override
  public void close() {
    reading.ifPresent(read -> Optional.ofNullable(read.exceptionally(failed -> null).join()).ifPresent(ahead -> {
      ahead.head().ifPresent(head -> head.exceptionally(failed -> null).join());
      ahead.unlistedRecord().ifPresent(record -> record.exceptionally(failed -> null).join());
    }));
    newManifests.close();
  }
}
