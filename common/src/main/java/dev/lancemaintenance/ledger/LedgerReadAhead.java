package dev.lancemaintenance.ledger;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
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
  private static final LedgerReadAhead NONE = new LedgerReadAhead(null, Optional.empty());

  /** The fingerprint of the ledger read (table identity and dataset): the one it may stand for. */
  private final String fingerprint;
  /** The read, or empty when it was skipped for a key snapshot; none when nothing was started. */
  private final Optional<CompletableFuture<Optional<LedgerRead>>> reading;

  private LedgerReadAhead(String fingerprint, Optional<CompletableFuture<Optional<LedgerRead>>> reading) {
    this.fingerprint = fingerprint;
    this.reading = reading;
  }

  /**
   * Starts reading {@code dataset}'s ledger through {@code storage} when {@code mode} reads it (not
   * {@link MarkMode#FULL}); close it before {@code storage}.
   */
  public static LedgerReadAhead start(TableStorage storage, DatasetRef dataset, MarkMode mode, Clock clock) {
    if (mode == MarkMode.FULL) {
      return NONE;
    }
    Objects.requireNonNull(dataset, "dataset");
    Ledger ledger = new Ledger(storage, dataset, clock);
    return new LedgerReadAhead(ledger.fingerprint(),
        Optional.of(DaemonThreads.beside("lance-ledger-read", () -> Optional.of(ledger.read()))));
  }

  /**
   * As {@link #start}, except that an incremental run of a dataset with a key snapshot reads no
   * ledger ahead: the local engine's daily run decides from the snapshot and never needs it
   * ({@link KeySnapshotMark}). The snapshot is looked for on the read's own thread, beside the
   * plan, not in a row before it; a run whose snapshot then proves unusable reads the ledger in line,
   * after the plan, which is as exact.
   */
  public static LedgerReadAhead startUnlessKeySnapshot(TableStorage storage, DatasetRef dataset, MarkMode mode, Clock clock) {
    if (mode != MarkMode.INCREMENTAL) {
      return start(storage, dataset, mode, clock);
    }
    Objects.requireNonNull(dataset, "dataset");
    Ledger ledger = new Ledger(storage, dataset, clock);
    return new LedgerReadAhead(ledger.fingerprint(), Optional.of(DaemonThreads.beside("lance-ledger-read",
        () -> KeySnapshotFile.exists(storage, dataset) ? Optional.empty() : Optional.of(ledger.read()))));
  }

  /** Nothing read ahead: the mark reads the ledger in line, after the plan. */
  public static LedgerReadAhead none() {
    return NONE;
  }

  /** The read started for {@code ledger}'s table and dataset, or {@code ledger} read now when none was (or it was skipped). */
  LedgerRead readOf(Ledger ledger) {
    if (reading.isEmpty()) {
      return ledger.read();
    }
    if (!fingerprint.equals(ledger.fingerprint())) {
      throw new IllegalArgumentException("the ledger was read ahead for another table or dataset than "
          + ledger.dataset() + " (fingerprint " + fingerprint + ", this one " + ledger.fingerprint() + ")");
    }
    return DaemonThreads.join(reading.get()).orElseGet(ledger::read);
  }

  /** Waits for a read still under way, so that none outlives the run's storage; never throws. */
  @Override
  public void close() {
    reading.ifPresent(read -> read.exceptionally(failed -> null).join());
  }
}
