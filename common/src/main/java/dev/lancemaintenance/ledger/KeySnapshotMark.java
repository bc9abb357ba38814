package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mark stage of a daily run from the previous run's key snapshot (docs/ledger.md, section 12;
 * why it is exact: docs/cleanup-semantics.md, section 21): decodes the versions new since the
 * snapshot and the islands, classifies every listed
 * version from the snapshot's recorded commit times and the new ones', and hands the decide stage
 * an answer per key ({@link KeySnapshotAnswers}) instead of marks. Anything the snapshot cannot
 * vouch for gives no outcome, and the run takes today's path ({@link MarkTasks}).
 *
 * <p>Also leaves the snapshot: {@link #leaveFromLedger} after today's path, {@link Outcome#commit}
 * after this one, each only from a run that executes, under its lease, before its release. A
 * snapshot is a fact about the manifests of the versions it names, true whoever runs later; a later
 * run uses it only when exactly those manifests are listed at or below its end.
 */
public final class KeySnapshotMark {
  private static final Logger LOG = LoggerFactory.getLogger(KeySnapshotMark.class);

  private KeySnapshotMark() {}

  /**
   * What the mark gives on this path.
   *
   * @param summary the retention facts, as the full mark stage gives them ({@code manifestsRead}
   *     counts what was decoded)
   * @param expiredManifests the listed manifests of the versions that expire now
   * @param answers each listed key's mark, and the referenced-files gate as a count
   * @param newVersions the versions above the snapshot's end as this run summarised them, the first
   *     whole ({@link LedgerSegment#firstVersionWhole}): what the ledger lacks after the snapshot
   * @param snapshotEnd the end {@code L} of the snapshot decided from
   * @param listedVersions the listed versions, for the ledger's compaction
   * @param keptManifests the listed manifests of the versions that keep their files, to name the
   *     keys the referenced-files gate misses
   * @param ledgerListing the listing of the ledger's directory the run took beside its plan, when it
   *     did: the append finds the head commit there instead of listing again
   * @param ledgerHead the head commit of that listing, read beside the plan when it was ({@link
   *     LedgerHead}): the append continues it instead of reading it at the run's end
   */
  public record Outcome(MarkSummary summary, List<CandidateFile> expiredManifests, KeySnapshotAnswers answers,
      LedgerSegment newVersions, long snapshotEnd, Set<Long> listedVersions, List<ManifestLocation> keptManifests,
      Optional<LedgerDirectory> ledgerListing, Optional<LedgerHead> ledgerHead) {
    public Outcome {
      expiredManifests = List.copyOf(expiredManifests);
      listedVersions = Set.copyOf(listedVersions);
      keptManifests = List.copyOf(keptManifests);
    }

    /**
     * The referenced-files gate on this path, once every decide task ended: none when every key
     * answered {@code KEPT} was met by a listed file. Else the snapshot knows how many it missed but
     * only by hash, so, for the refusal's message alone, the manifests of the versions this run keeps
     * are decoded and their keys the listing did not meet are named, as today's path names them
     * ({@link UnlistedReferences#EXAMPLES} smallest). Rare, and the run deletes nothing after it: the
     * gate refuses before the sweep whether or not a name is found. The count stays the snapshot's.
     */
    public UnlistedReferences unlisted(MarkTasks.Decoder decoder) {
      long missing = answers.keptEntries() - answers.keptEntriesListed();
      if (missing == 0) {
        return UnlistedReferences.NONE;
      }
      TreeSet<String> named = new TreeSet<>();
      if (!keptManifests.isEmpty()) {
        // Without base: the first version opens all it references and each later one what it adds,
        // so the opens hold every key a kept version references.
        RunSummary kept = decoder.summarise(List.of(new ManifestRun(List.of(), keptManifests, 1))).get(0);
        kept.opens().stream().map(open -> open.element().key()).filter(answers::keptAndUnlisted).forEach(named::add);
      }
      return new UnlistedReferences(missing, named.stream().limit(UnlistedReferences.EXAMPLES).toList());
    }

    /**
     * Appends the new versions to the ledger and leaves the snapshot of the versions this run
     * keeps, beside its release, when it executes. The ledger first: a run that dies between the
     * two leaves a ledger ahead of the snapshot, which the next run's append continues ({@link
     * Ledger#appendWithoutFold}); the other order would leave a snapshot ahead of the ledger,
     * which no run on this path can close, and every later append would be refused until a run
     * on today's path read the ledger again. Both are best effort: either only saves later work.
     *
     * <p>Two tasks under the lease, the snapshot's write waiting for the ledger's commit to be
     * created, not for its read-back: the snapshot is worked out and encoded beside the append's
     * requests, and its create-if-absent goes beside the read-back (one round trip fewer in the
     * run's row on an object store). Exact: the order a run killed between can leave is the
     * commit's create before the snapshot's, which holds; the read-back, which on a store that
     * ignores the conditional header tells whether the commit created is still ours, never
     * decided whether the snapshot is written (a lost append leaves it all the same, as before),
     * only the ledger's prune, which it still decides (docs/ledger.md, section 12.4, "The order,
     * and a run killed between").
     *
     * <p>What the two leave behind, the ledger's older commit (and stale segments) and the older
     * snapshot, is chosen from the run's listing of the directory under the lease and deleted beside
     * the release, in one batch, not before it: two round trips fewer in the run's row on an object
     * store (docs/ledger.md, section 12.4, "The prunes beside the release", says why nothing changes).
     */
    public void leaveNext(TableStorage storage, CleanupMode run, Clock clock) {
      if (run != CleanupMode.EXECUTE) {
        return;
      }
      // Completed when the append's commit was created, or the append ended without creating one.
      CompletableFuture<Void> ledgerCreated = new CompletableFuture<>();
      CompletableFuture<List<String>> ledgerSuperseded = new CompletableFuture<>();
      CompletableFuture<List<String>> snapshotSuperseded = new CompletableFuture<>();
      // Queued first, so that without a lease (here and now) the append is done before the snapshot waits for it.
      TableLease.beforeRelease(storage, "lance-ledger-append", on -> {
        List<String> old = new ArrayList<>();
        try {
          appendToLedger(on, clock, old::addAll, () -> ledgerCreated.complete(null));
        } finally {
          ledgerCreated.complete(null);
          ledgerSuperseded.complete(old);
        }
      });
      TableLease.beforeRelease(storage, "lance-key-snapshot", on -> {
        List<String> old = new ArrayList<>();
        try {
          // The generations from the run's listing, when it took one; else the write lists them.
          write(() -> {
            KeySnapshot next = answers.next();
            if (ledgerListing.isEmpty()) {
              ledgerCreated.join();
              return KeySnapshotFile.write(on, next);
            }
            byte[] encoded = KeySnapshotFile.encode(next);
            ledgerCreated.join();
            return KeySnapshotFile.write(on, next.dataset(), encoded, ledgerListing.get(), old::addAll);
          });
        } finally {
          snapshotSuperseded.complete(old);
        }
      });
      // Started after the work above is queued, so that without a lease (here and now) it finds the choice made.
      TableLease.besideRelease(storage, "lance-ledger-prune", on -> {
        List<String> old = new ArrayList<>(ledgerSuperseded.join());
        old.addAll(snapshotSuperseded.join());
        Ledger.deleteOld(on, old);
      });
    }

    private void appendToLedger(TableStorage storage, Clock clock, Consumer<List<String>> prune, Runnable created) {
      try {
        Ledger ledger = new Ledger(storage, newVersions.dataset(), clock);
        // The head read beside the plan when it was; else the one in the run's listing, read now.
        Optional<String> notContinued = ledgerHead.isPresent()
            ? ledger.appendWithoutFold(ledgerHead.get(), newVersions, snapshotEnd, listedVersions, prune, created)
            : ledgerListing.map(listed -> ledger.appendWithoutFold(listed, newVersions, snapshotEnd, listedVersions, prune))
                .orElseGet(() -> ledger.appendWithoutFold(newVersions, snapshotEnd, listedVersions));
        notContinued.ifPresent(why -> LOG.info("lance cleanup: the ledger is not continued by this run ({}); a later run on today's "
                + "path decodes what it lacks", why));
      } catch (RuntimeException e) {
        LOG.warn("lance cleanup: could not append to the ledger (a later run on today's path decodes what it lacks): {}",
            e.getMessage());
      }
    }
  }

  /**
   * Why the plan's run cannot take this path whatever the snapshot says, or empty: only a run of
   * the main table, with no branch reading it and no fork point,
   * no inventory (its listing may not have to show every kept file) and a listing of every managed
   * directory (a resumed run lists only what a dead run decided).
   */
  static Optional<String> excluded(CleanupPlan plan) {
    RetentionFacts facts = plan.facts();
    if (!facts.dataset().isMain() || !facts.forkPoints().isEmpty()
        || plan.slices().stream().anyMatch(slice -> slice.role() != ManifestSlice.SliceRole.TABLE_VERSIONS)) {
      return Optional.of("branches");
    }
    if (facts.inventory() != null || plan.listings().stream().anyMatch(task -> task.inventoryPart() != null || task.recorded() != null)) {
      return Optional.of("not a listing of every managed directory");
    }
    return Optional.empty();
  }

  /**
   * The marks from the newest key snapshot for an incremental run without verify, or empty (the
   * reason logged) when this run must take today's path.
   */
  public static Optional<Outcome> mark(TableStorage storage, CleanupPlan plan, MarkMode mode, MarkTasks.Decoder decoder,
      LedgerReadAhead ahead) {
    // Verify takes today's path and compares this one's answers with its marks (MarkTasks).
    return mode == MarkMode.INCREMENTAL ? fromSnapshot(storage, plan, decoder, ahead) : Optional.empty();
  }

  /**
   * How many manifests a run of {@code plan} that decides from the newest key snapshot decodes (the
   * versions listed above the snapshot's end, before any island), or empty when the snapshot
   * cannot be used (the reason logged): what an engine that distributes weighs against {@code
   * distribute_above} for a daily run, whose reads follow the versions new since the last run, not
   * the table's history. The same checks as the mark's own, on the same snapshot read ahead.
   */
  public static OptionalLong versionsToDecode(TableStorage storage, CleanupPlan plan, LedgerReadAhead ahead) {
    List<ManifestLocation> listed = listed(plan);
    return usableSnapshot(storage, plan, ahead, listed)
        .map(snapshot -> OptionalLong.of(versionsAbove(listed, snapshot.endVersion())))
        .orElse(OptionalLong.empty());
  }

  /** The versions of {@code listed} above {@code end}: those a run from a snapshot ending there decodes. */
  static long versionsAbove(List<ManifestLocation> listed, long end) {
    return listed.stream().filter(location -> location.version() > end).count();
  }

  /** The marks from the newest key snapshot whatever the mode, or empty when the snapshot cannot give them. */
  static Optional<Outcome> fromSnapshot(TableStorage storage, CleanupPlan plan, MarkTasks.Decoder decoder, LedgerReadAhead ahead) {
    RetentionFacts facts = plan.facts();
    List<ManifestLocation> listed = listed(plan);
    Optional<KeySnapshot> snapshot = usableSnapshot(storage, plan, ahead, listed);
    if (snapshot.isEmpty()) {
      return Optional.empty();
    }
    String fingerprint = Ledger.fingerprint(storage.location().identity(), facts.dataset());
    try {
      return Optional.of(mark(snapshot.get(), facts, listed, decoder, ahead.listingOf(facts.dataset(), fingerprint),
          ahead.headOf(facts.dataset(), fingerprint)));
    } catch (KeySnapshot.NotContinuable e) {
      LOG.info("lance cleanup {}: the key snapshot cannot be continued ({})", facts.describe(), e.getMessage());
      return Optional.empty();
    }
  }

  private static List<ManifestLocation> listed(CleanupPlan plan) {
    return plan.slices().stream().flatMap(slice -> slice.manifests().stream()).toList();
  }

  /**
   * The newest key snapshot, when this path is open to the plan's run and the snapshot describes
   * exactly the listed versions at or below its end; empty otherwise, the reason logged.
   */
  private static Optional<KeySnapshot> usableSnapshot(
      TableStorage storage, CleanupPlan plan, LedgerReadAhead ahead, List<ManifestLocation> listed) {
    RetentionFacts facts = plan.facts();
    // The expiry records and the snapshot from the ledger directory's one listing, taken beside the
    // plan (LedgerDirectory), which today's path, should this one give way, uses as well.
    Optional<String> excluded = excluded(plan).or(() ->
        ahead.expiryRecordTasks(storage, facts.dataset()).isEmpty() ? Optional.empty() : Optional.of("expiry records"));
    if (excluded.isPresent()) {
      return Optional.empty();
    }
    String fingerprint = Ledger.fingerprint(storage.location().identity(), facts.dataset());
    KeySnapshotFile.Read read = ahead.keySnapshotOf(storage, facts.dataset(), fingerprint);
    if (read.snapshot().isEmpty()) {
      LOG.info("lance cleanup {}: no key snapshot to decide from ({})", facts.describe(), read.problem().orElse(""));
      return Optional.empty();
    }
    KeySnapshot snapshot = read.snapshot().get();
    Optional<String> mismatch = snapshot.mismatch(listed);
    if (mismatch.isPresent()) {
      LOG.info("lance cleanup {}: the key snapshot does not describe the listed versions ({})", facts.describe(), mismatch.get());
      return Optional.empty();
    }
    return Optional.of(snapshot);
  }

  private static Outcome mark(KeySnapshot snapshot, RetentionFacts facts, List<ManifestLocation> listed,
      MarkTasks.Decoder decoder, Optional<LedgerDirectory> ledgerListing, Optional<LedgerHead> ledgerHead)
      throws KeySnapshot.NotContinuable {
    long end = snapshot.endVersion();
    List<ManifestLocation> newer = listed.stream().filter(location -> location.version() > end).toList();
    List<LedgerVersion> newVersions = new ArrayList<>();
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    int decoded = 0;
    if (!newer.isEmpty()) {
      // Without base, as the ledger's first run: the snapshot compares the first with its newest version.
      RunSummary summary = summarised(decoder, new ManifestRun(List.of(), newer, 1));
      newVersions.addAll(summary.versions());
      opens.addAll(summary.opens());
      closes.addAll(summary.closes());
      decoded += newer.size();
    }
    // Summarised without base: its first version whole, as the ledger takes it without a fold.
    LedgerSegment summarised = new LedgerSegment(snapshot.fingerprint(), snapshot.dataset(), newVersions, opens, closes, true);
    ContinuedKeySnapshot continued = snapshot.continueWith(summarised);

    // Each listed version's commit time from its summary, walked beside the listing instead of
    // looked up in a map of every version (101,010 boxed entries on huge-steady): the snapshot's
    // versions are the listed ones at or below its end, in order (mismatch), and the new ones were
    // summarised from the listed ones above it, in order.
    Iterator<LedgerVersion> summarisedInOrder = Stream.concat(snapshot.versions().stream(), newVersions.stream()).iterator();
    Set<Long> keepFiles = new HashSet<>();
    List<CandidateFile> expiredManifests = new ArrayList<>();
    MarkSummary summary = MarkSummary.EMPTY;
    for (ManifestLocation location : listed) {
      LedgerVersion recorded = summarisedInOrder.hasNext() ? summarisedInOrder.next() : null;
      if (recorded == null || recorded.version() != location.version()) {
        throw new KeySnapshot.NotContinuable("version " + location.version() + " is listed but not summarised in order");
      }
      long timestamp = recorded.timestampNanos();
      VersionRetention retention = facts.classify(location.version(), timestamp);
      summary = summary.plus(MarkSummary.ofVersion(facts, location.version(), timestamp, retention));
      if (retention.keepsFiles()) {
        keepFiles.add(location.version());
      } else if (retention == VersionRetention.EXPIRED) {
        expiredManifests.add(new CandidateFile(location.path(), FileKind.MANIFEST, location.size(), RemovalReason.EXPIRED_VERSION));
      } else {
        throw new KeySnapshot.NotContinuable("version " + location.version() + " is kept for a branch");
      }
    }
    Map<Long, List<String>> islandReferences = new HashMap<>();
    for (long island : continued.islands(keepFiles)) {
      ManifestLocation location = listed.stream().filter(at -> at.version() == island).findFirst().orElseThrow();
      RunSummary alone = summarised(decoder, new ManifestRun(List.of(), List.of(location), 1));
      decoded++;
      List<String> keys = new ArrayList<>();
      for (LedgerSegment.Open open : alone.opens()) {
        if (!open.element().certain()) {
          throw new KeySnapshot.NotContinuable("island " + island + " references " + open.element().key() + " uncertainly");
        }
        keys.add(open.element().key());
      }
      islandReferences.put(island, keys);
    }
    KeySnapshotAnswers answers = continued.answers(keepFiles, islandReferences);
    MarkSummary read = new MarkSummary(decoded, summary.expiredVersions(), summary.earliestRetainedNanos(), summary.taggedOldVersions());
    LOG.info("lance cleanup {}: deciding from the key snapshot of version {} ({} entries, {} new versions, {} islands)",
        facts.describe(), end, snapshot.entries(), newer.size(), islandReferences.size());
    // The continued snapshot's versions are the listed ones (mismatch and the walk above); copied once, by Outcome.
    Set<Long> listedVersions = continued.listedVersions();
    List<ManifestLocation> keptManifests = listed.stream().filter(location -> keepFiles.contains(location.version())).toList();
    return new Outcome(read, expiredManifests, answers, summarised, end, listedVersions, keptManifests, ledgerListing, ledgerHead);
  }

  private static RunSummary summarised(MarkTasks.Decoder decoder, ManifestRun run) throws KeySnapshot.NotContinuable {
    RunSummary summary = decoder.summarise(List.of(run)).get(0);
    if (!summary.misnumbered().isEmpty()) {
      throw new KeySnapshot.NotContinuable(summary.misnumbered().get(0));
    }
    return summary;
  }

  /**
   * Leaves the first snapshot after today's incremental path, from the ledger it folded: of the
   * listed versions that keep their files, when the run executes and this path could be taken
   * next time; none when one of them references a file uncertainly.
   *
   * @param state the ledger after this run's summaries
   */
  static void leaveFromLedger(TableStorage storage, CleanupPlan plan, MarkMode mode, CleanupMode run, LedgerState state) {
    if (run != CleanupMode.EXECUTE || excluded(plan).isPresent()) {
      return;
    }
    RetentionFacts facts = plan.facts();
    Set<Long> keepFiles = new HashSet<>();
    for (ManifestSlice slice : plan.slices()) {
      for (ManifestLocation location : slice.manifests()) {
        VersionRetention retention = facts.classify(location.version(), state.versions().get(location.version()).timestampNanos());
        if (retention.keepsFiles()) {
          keepFiles.add(location.version());
        }
      }
    }
    if (!keepFiles.contains(state.endVersion())) {
      return; // the ledger's end is the newest listed version, always kept; anything else is not ours to describe
    }
    TableLease.beforeRelease(storage, "lance-key-snapshot",
        on -> KeySnapshot.fromLedger(state, keepFiles).ifPresent(snapshot -> write(() -> KeySnapshotFile.write(on, snapshot))));
  }

  /** Best effort, as the ledger's commit: a snapshot that cannot be written only costs the next run today's path. */
  private static void write(BooleanSupplier written) {
    try {
      if (!written.getAsBoolean()) {
        LOG.warn("lance cleanup: another writer took the key snapshot's generation; the next run checks whichever is newest");
      }
    } catch (RuntimeException e) {
      LOG.warn("lance cleanup: could not write the key snapshot (the next run takes today's path): {}", e.getMessage());
    }
  }
}
