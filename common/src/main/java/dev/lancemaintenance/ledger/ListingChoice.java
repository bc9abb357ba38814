package dev.lancemaintenance.ledger;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestsReadEarly;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongPredicate;

/**
 * Whether a run that may examine names instead of listing ({@link ListingSkip}) lists, chosen beside
 * the plan, and the reads that choice needs, started there too: the store's horizon ({@link
 * TableStorage#listingHorizonMillis}), the record of the last listing (read by the ledger's
 * read-ahead beside the key snapshot, {@link LedgerReadAhead}) and the manifests of the versions the
 * policy will expire ({@link ManifestsReadEarly#versions}, as the plan lists them). Stop 34 asked
 * for the horizon before the plan and read the rest after the mark, in the run's row
 * (docs/ledger.md, section 11.7).
 *
 * <p>Exact: the choice only says whether the walks of the managed directories start beside the plan
 * and whether the mark tries to examine names; what the run examines is still decided after the
 * mark by {@link ListingSkip#decide}, from the plan's listing and the mark's answers, with every
 * condition of docs/ledger.md section 11.2 checked again there; a run it sent to examine and that
 * decide sends to the listing lists after the mark, as in stop 34. A run it sends to the listing
 * lists, which is always exact. The walks wait for the horizon's answer (section 11.3, correction
 * 1: the open uploads are listed before the first {@code LIST} of a managed directory). The
 * manifests read early are only taken for a decode when the plan lists them with the identity the
 * read started from ({@link ManifestsReadEarly}); a choice that proves wrong wastes reads, never
 * changes what goes.
 */
public final class ListingChoice implements AutoCloseable {
  private static final ListingChoice LISTS = new ListingChoice(CompletableFuture.completedFuture(OptionalLong.empty()),
      CompletableFuture.completedFuture(Optional.of("listing => 'always', or not a run that may skip it")), ManifestsReadEarly.none(),
      false, false);

  private final CompletableFuture<OptionalLong> horizon;
  private final CompletableFuture<Optional<String>> listsBecause;
  private final ManifestsReadEarly expiring;
  /** False for {@link #lists()}: nothing was weighed, so there is nothing to report. */
  private final boolean considered;
  /** A {@code verify} run: it lists whatever the choice, and weighs it only to compare ({@link ListingSkipVerification}). */
  private final boolean verifies;

  private ListingChoice(CompletableFuture<OptionalLong> horizon, CompletableFuture<Optional<String>> listsBecause,
      ManifestsReadEarly expiring, boolean considered, boolean verifies) {
    this.horizon = horizon;
    this.listsBecause = listsBecause;
    this.expiring = expiring;
    this.considered = considered;
    this.verifies = verifies;
  }

  /** A run that lists whatever the ledger holds, and asks the store for no horizon (it leaves no record). */
  public static ListingChoice lists() {
    return LISTS;
  }

  /**
   * Starts the choice of a run that may examine names instead of listing: the horizon's request at
   * once, and, once the ledger's directory, the record and the key snapshot are read ahead ({@code
   * ahead}, started with the record's read), the conditions that can be checked before the plan
   * ends (section 11.2's C1, and C3 as the key snapshot's versions and the policy foretell it).
   * With {@code verifies} (a {@code verify => true} run) the run lists whatever the choice, its walks
   * starting once the horizon answered, and the choice says only whether it compares its listing
   * with the names it could have examined instead (docs/ledger.md, section 11.6).
   */
  public static ListingChoice start(TableStorage storage, DatasetRef dataset, CleanupPolicy policy, LedgerReadAhead ahead,
      Duration margin, boolean verifies) {
    CompletableFuture<OptionalLong> horizon = DaemonThreads.beside("lance-listing-horizon", storage::listingHorizonMillis);
    CompletableFuture<Optional<String>> listsBecause = horizon.thenCompose(taken -> DaemonThreads.beside("lance-listing-choice",
            () -> listsBecause(storage, dataset, policy, ahead, taken, margin)))
        .exceptionally(failed -> Optional.of("the choice beside the plan failed (" + failed + ")"));
    String fingerprint = Ledger.fingerprint(storage.location().identity(), dataset);
    ManifestsReadEarly expiring = ManifestsReadEarly.versions(storage, listsBecause.thenApply(lists -> lists.isPresent()
        ? Optional.empty()
        : ahead.keySnapshotOf(storage, dataset, fingerprint).snapshot().map(snapshot -> expiring(snapshot, policy))));
    return new ListingChoice(horizon, listsBecause, expiring, true, verifies);
  }

  /**
   * The choice of a run of {@code cleanup} started before its plan lists {@code _versions/}: {@link
   * #start} for a run that {@code mayExamineNames} (an incremental or verify run of the main dataset
   * on an object store, with {@code listing => 'auto'}; every engine's action asks it the same way),
   * whose ledger is read ahead with the record of the last listing ({@link
   * LedgerReadAhead#startUnlessKeySnapshot}'s {@code readsUnlistedRecord}); {@link #lists()} for any
   * other. {@code margin} empty: {@link ListingSkip#PUT_MARGIN}.
   */
  public static ListingChoice of(boolean mayExamineNames, TableStorage storage, DatasetCleanup cleanup, LedgerReadAhead ahead,
      Optional<Duration> margin, boolean verifies) {
    return mayExamineNames
        ? start(storage, cleanup.dataset(), cleanup.policy(), ahead, margin.orElse(ListingSkip.PUT_MARGIN), verifies)
        : lists();
  }

  /** Why the run lists, as far as can be told before the plan ends; empty when it may examine names. */
  private static Optional<String> listsBecause(TableStorage storage, DatasetRef dataset, CleanupPolicy policy,
      LedgerReadAhead ahead, OptionalLong horizon, Duration margin) {
    if (horizon.isEmpty()) {
      return Optional.of("the store cannot bound its times (its open uploads could not be listed)");
    }
    if (policy.orphanCutoffMillis().isPresent()) {
      return Optional.of(ListingSkip.AN_ORPHAN_SWEEP);
    }
    // Asked of the ledger directory's listing alone, before the record and the snapshot are read:
    // a run without a record starts its walks without waiting for the snapshot's read.
    if (!ahead.holdsUnlistedRecord()) {
      return Optional.of("no record of the last listing");
    }
    ListingSkip.UsableRecord usable = ListingSkip.usableRecord(storage, dataset, ahead);
    if (usable.listsBecause().isPresent()) {
      return usable.listsBecause();
    }
    // C3 foretold: the oldest version the policy leaves of those the snapshot holds. Tags and
    // retain_last only keep more, older versions, so the run's own cut-off is at or before this.
    long horizonMillis = usable.record().horizonMillis();
    Optional<LedgerVersion> oldestLeft = usable.snapshot().versions().stream()
        .filter(version -> !policy.qualifies(version.version(), version.timestampNanos())).findFirst();
    if (oldestLeft.isPresent()) {
      long cutoffMillis = DecisionContext.cutoffMillisOf(oldestLeft.get().timestampNanos());
      if (cutoffMillis > horizonMillis - margin.toMillis()) {
        return Optional.of(ListingSkip.notOlderThanTheHorizon(cutoffMillis, horizonMillis, margin));
      }
    }
    return Optional.empty();
  }

  /**
   * The versions of {@code snapshot} the policy will expire, at most {@link ManifestsReadEarly#MANIFESTS}
   * of the oldest: the versions it qualifies (retain_last and tags only keep some of these, and the
   * expiring ones are the oldest of them).
   */
  private static LongPredicate expiring(KeySnapshot snapshot, CleanupPolicy policy) {
    HashSet<Long> chosen = new HashSet<>();
    snapshot.versions().stream().filter(version -> policy.qualifies(version.version(), version.timestampNanos()))
        .limit(ManifestsReadEarly.MANIFESTS).forEach(version -> chosen.add(version.version()));
    return chosen::contains;
  }

  /** Whether the run weighed examining names (not {@link #lists()}): then its list stage says which path it took and why. */
  public boolean considered() {
    return considered;
  }

  /**
   * Whether the run lists: then the walks of the managed directories start beside the plan, once
   * this is known; a {@code verify} run's walks start once the horizon answered (it lists always).
   */
  public CompletableFuture<Boolean> walks() {
    return verifies ? horizon.handle((taken, failed) -> true) : listsBecause.thenApply(Optional::isPresent);
  }

  /**
   * Why the run lists, or empty when it may examine names (the mark then decides, {@link
   * ListingSkip#decide}; a {@code verify} run lists anyway and compares); waits for the choice.
   */
  public Optional<String> listsBecause() {
    return listsBecause.join();
  }

  /** The horizon the store gave before any walk; empty where it could not, or the run asked none. */
  public OptionalLong horizon() {
    return horizon.exceptionally(failed -> OptionalLong.empty()).join();
  }

  /** The manifests of the expiring versions read as the plan lists them: give the listing to it, and decode with it. */
  public ManifestsReadEarly expiringManifests() {
    return expiring;
  }

  /** Waits for what is under way, so that nothing outlives the run's storage; never throws. */
  @Override
  public void close() {
    horizon.exceptionally(failed -> null).join();
    listsBecause.exceptionally(failed -> null).join();
    expiring.close();
  }
}
