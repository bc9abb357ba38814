package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A daily run on an object store that examines the few names that can be candidates instead of
 * listing the managed directories (docs/ledger.md, section 11; why it is exact:
 * docs/cleanup-semantics.md, section 22). Taken only by a run that decides from the key snapshot
 * ({@link KeySnapshotMark}), beside which the last runs left a record ({@link UnlistedRecord}) of
 * the versions it is true of, a horizon {@code H} and the files seen unreferenced and kept {@code K}.
 *
 * <p>The names examined: (a) the keys the manifests of the versions expiring now reference that the
 * snapshot's answers give {@code EXPIRED}, and (b) {@code K}. Each is read back with a listing of its
 * prefix (the key's names with the attributes a listing gives), and the names read are the listing
 * tasks' input, decided by the code that decides a listed name. Anything the argument needs and the
 * run cannot show sends it to the listing, and the stage line says why.
 */
public final class ListingSkip {
  private static final Logger LOG = LoggerFactory.getLogger(ListingSkip.class);
  /**
   * How long a single {@code PUT} may be in flight across a listing and still be counted: S3 does not
   * say whether a {@code PUT}'s time is its arrival or its end, so the horizon is lowered by this
   * (docs/ledger.md, section 11.3, correction 2).
   */
  public static final Duration PUT_MARGIN = Duration.ofHours(1);

  private ListingSkip() {}

  /**
   * A prefix the run lists instead of a directory, and which names under it count: those of {@code
   * key} (an examined key, (a)), or {@code path} alone (a file of {@code K}, (b)).
   */
  public record Examined(String prefix, String key, String path) {
    /** Whether {@code listed}, found under the prefix, is one of the names examined. */
    public boolean counts(DatasetRef dataset, String listed) {
      return path != null ? listed.equals(path) : ReferenceKeys.keyOf(dataset, listed).equals(key);
    }

    /**
     * The names of this prefix that count, as one listing of the prefix shows them now, with the
     * size and time a listing gives: what a run without a listing decides instead of a listed
     * directory, and what {@code verify} reads for that run's side ({@link ListingSkipVerification}).
     */
    public List<FileEntry> filesNow(TableStorage storage, DatasetRef dataset) {
      return storage.filesWithPrefix(prefix).stream().filter(file -> counts(dataset, file.path())).toList();
    }

    static Examined ofKey(DatasetRef dataset, String key) {
      String inDataset = dataset.relativize(key);
      if (inDataset != null && inDataset.startsWith(ManagedLayout.INDICES + "/")) {
        return new Examined(key + "/", key, null); // an index: every file of its directory
      }
      if (inDataset != null && inDataset.startsWith(ManagedLayout.DATA + "/") && key.endsWith(".lance")) {
        // The data file and its blob sidecars, data/<stem>/<n>.blob, in one request.
        return new Examined(key.substring(0, key.length() - ".lance".length()), key, null);
      }
      return new Examined(key, key, null);
    }

    static Examined ofFile(String path) {
      return new Examined(path, null, path);
    }
  }

  /**
   * What the run does instead of listing: the names to examine, and the horizon to record again (a
   * run that does not list cannot move it, section 11.3, correction 3); or why it lists.
   */
  public record Decision(List<Examined> examined, long horizonMillis, Optional<String> listsBecause) {
    static Decision lists(String why) {
      return new Decision(List.of(), Long.MIN_VALUE, Optional.of(why));
    }

    public boolean skipsTheListing() {
      return listsBecause.isEmpty();
    }
  }

  /**
   * Whether the run that marked {@code outcome} from the key snapshot may examine names instead of
   * listing, and which; the conditions of docs/ledger.md, section 11.2 (C0, the snapshot's path,
   * holds already; C4 is the caller's: it asks only on a store that bounds its times and when the
   * user did not ask for {@code listing => 'always'}).
   *
   * @param decoder decodes the expiring manifests, each in a task of its own
   * @param margin the {@code PUT} margin ({@link #PUT_MARGIN}; tests, whose versions are seconds old, give less)
   */
  public static Decision decide(TableStorage storage, CleanupPlan plan, KeySnapshotMark.Outcome outcome,
      LedgerReadAhead ahead, MarkTasks.Decoder decoder, Duration margin) {
    DatasetRef dataset = plan.facts().dataset();
    if (plan.facts().policy().orphanCutoffMillis().isPresent()) {
      return Decision.lists(AN_ORPHAN_SWEEP);
    }
    UsableRecord usable = usableRecord(storage, dataset, ahead);
    if (usable.listsBecause().isPresent()) {
      return Decision.lists(usable.listsBecause().get());
    }
    UnlistedRecord record = usable.record();
    long cutoffMillis = DecisionContext.cutoffMillisOf(outcome.summary().earliestRetainedNanos());
    long horizon = record.horizonMillis();
    if (cutoffMillis > horizon - margin.toMillis()) {
      return Decision.lists(notOlderThanTheHorizon(cutoffMillis, horizon, margin));
    }
    Map<String, Examined> byKey = new LinkedHashMap<>();
    try {
      for (String key : expiredKeys(plan, outcome, decoder)) {
        if (ReferenceKeys.isInDataset(dataset, key)) {
          byKey.putIfAbsent(key, Examined.ofKey(dataset, key));
        }
      }
    } catch (KeySnapshot.NotContinuable e) {
      return Decision.lists(e.getMessage());
    }
    List<Examined> examined = new ArrayList<>(byKey.values());
    int fromManifests = examined.size();
    for (FileEntry kept : record.kept()) {
      // A file of a key examined already is among that key's names.
      if (!byKey.containsKey(ReferenceKeys.keyOf(dataset, kept.path()))) {
        examined.add(Examined.ofFile(kept.path()));
      }
    }
    LOG.info("lance cleanup {}: examining {} keys of the expiring versions and {} files kept since the last listing"
            + " instead of listing (horizon {})", plan.facts().describe(), fromManifests, examined.size() - fromManifests,
        Instant.ofEpochMilli(horizon));
    return new Decision(examined, horizon, Optional.empty());
  }

  /** Why an orphan sweep lists (C0 of docs/ledger.md, section 11.2). */
  static final String AN_ORPHAN_SWEEP = "an orphan sweep, whose cut-off is the files' own";

  /**
   * The record of the last listing, as the ledger's read-ahead read it, with the key snapshot it is
   * true of; or why the run lists: no record, one that does not read whole or is another table's,
   * or one of other versions than the snapshot's (C1 of docs/ledger.md, section 11.2). One home for
   * the choice beside the plan ({@link ListingChoice}) and the decision after the mark.
   */
  record UsableRecord(UnlistedRecord record, KeySnapshot snapshot, Optional<String> listsBecause) {
    private static UsableRecord lists(String why) {
      return new UsableRecord(null, null, Optional.of(why));
    }
  }

  static UsableRecord usableRecord(TableStorage storage, DatasetRef dataset, LedgerReadAhead ahead) {
    String fingerprint = Ledger.fingerprint(storage.location().identity(), dataset);
    UnlistedRecord.Read read = ahead.unlistedRecordOf(storage, dataset, fingerprint);
    if (read.record().isEmpty()) {
      return UsableRecord.lists(read.problem());
    }
    Optional<KeySnapshot> snapshot = ahead.keySnapshotOf(storage, dataset, fingerprint).snapshot();
    if (snapshot.isEmpty() || !read.record().get().describes(snapshot.get())) {
      return UsableRecord.lists("the record of the last listing is of other versions than the key snapshot's");
    }
    return new UsableRecord(read.record().get(), snapshot.get(), Optional.empty());
  }

  /** Why a run lists when its cut-off fails C3 (docs/ledger.md, section 11.2). */
  static String notOlderThanTheHorizon(long cutoffMillis, long horizonMillis, Duration margin) {
    return "the oldest retained version (" + Instant.ofEpochMilli(cutoffMillis) + ") is not older than the last listing ("
        + Instant.ofEpochMilli(horizonMillis) + ") less " + margin;
  }

  /**
   * The keys the manifests of the expiring versions reference that the snapshot's answers give
   * {@code EXPIRED}: every key some listed version references and no version the run keeps does
   * is referenced by an expiring one, so these are all of them (cleanup-semantics.md, section 22).
   */
  private static Set<String> expiredKeys(CleanupPlan plan, KeySnapshotMark.Outcome outcome, MarkTasks.Decoder decoder)
      throws KeySnapshot.NotContinuable {
    Map<String, ManifestLocation> listed = plan.slices().stream().flatMap(slice -> slice.manifests().stream())
        .collect(Collectors.toMap(ManifestLocation::path, Function.identity(), (a, b) -> a));
    List<ManifestRun> runs = new ArrayList<>();
    for (CandidateFile expired : outcome.expiredManifests()) {
      ManifestLocation location = listed.get(expired.path());
      if (location == null) {
        throw new KeySnapshot.NotContinuable("the expiring manifest " + expired.path() + " is not among the listed ones");
      }
      runs.add(new ManifestRun(List.of(), List.of(location), 1)); // each alone: decoded side by side
    }
    Set<String> keys = new LinkedHashSet<>();
    if (runs.isEmpty()) {
      return keys;
    }
    KeySnapshotAnswers.Listing answers = outcome.answers().listing();
    for (RunSummary summary : decoder.summarise(runs)) {
      if (!summary.misnumbered().isEmpty()) {
        throw new KeySnapshot.NotContinuable(summary.misnumbered().get(0));
      }
      for (LedgerSegment.Open open : summary.opens()) {
        if (!open.element().certain()) {
          throw new KeySnapshot.NotContinuable("an expiring version references " + open.element().key() + " uncertainly");
        }
        String key = open.element().key();
        if (!keys.contains(key) && answers.markOfListed(key).filter(mark -> mark == MarkState.EXPIRED).isPresent()) {
          keys.add(key);
        }
      }
    }
    return keys;
  }

  /**
   * Leaves the record the next run needs beside the key snapshot, under the lease, when the run
   * executes: the versions it keeps with their files, {@code horizonMillis} (taken before this
   * run's listing, or carried from the record it skipped the listing with), and the files it kept
   * unreferenced with a time before the horizon (later ones are after every later run's cut-off
   * until a run lists again and moves the horizon past them). Only called once every file the run
   * chose went (the release of the expired manifests follows a complete sweep): a file that was
   * to go and did not is in no record, so a run that failed a delete records nothing, and the next
   * run, whose snapshot then describes other versions or the same ones, uses an older record only
   * when it is still true (section 11.1). Best effort: a record not written costs a listing.
   */
  public static void leaveRecord(TableStorage storage, CleanupMode run, KeySnapshotMark.Outcome outcome,
      long horizonMillis, Collection<FileEntry> keptUnreferenced) {
    if (run != CleanupMode.EXECUTE) {
      return;
    }
    DatasetRef dataset = outcome.newVersions().dataset();
    Map<String, FileEntry> kept = new LinkedHashMap<>();
    keptUnreferenced.stream().filter(file -> file.modificationTimeMillis() < horizonMillis)
        .forEach(file -> kept.putIfAbsent(file.path(), file));
    UnlistedRecord record = new UnlistedRecord(Ledger.fingerprint(storage.location().identity(), dataset), dataset,
        UnlistedRecord.digestOf(outcome.answers().keptVersions()), horizonMillis, List.copyOf(kept.values()));
    TableLease.beforeRelease(storage, "lance-unlisted-record", on -> {
      try {
        LedgerDirectory listed = outcome.ledgerListing().orElseGet(() -> LedgerDirectory.list(on, dataset));
        if (record.write(on, listed)) {
          LOG.info("lance cleanup: left the record of the last listing beside the key snapshot (horizon {}, {} files kept"
              + " unreferenced)", Instant.ofEpochMilli(horizonMillis), kept.size());
        } else {
          LOG.warn("lance cleanup: another writer took the record of the last listing's generation; the next run lists");
        }
      } catch (RuntimeException e) {
        LOG.warn("lance cleanup: could not write the record of the last listing (the next run lists): {}", e.getMessage());
      }
    });
  }
}
