package dev.lancemaintenance.expire;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkManifests;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.ledger.ExpiryRecord;
import dev.lancemaintenance.ledger.ExpiryRecords;
import dev.lancemaintenance.ledger.LedgerElement;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code expire_versions} run on one dataset: plan as a cleanup plans (listing only), read the
 * manifests of the versions that may go, in version order and in runs of {@value #RUN_LENGTH},
 * and for each run record what only its expired versions reference, read the record back, and only
 * then delete their manifests.
 *
 * <p>Which versions go: exactly those the cleanup with the same policy expires ({@link
 * RetentionFacts#classify}: not the latest, below {@code before_version} and the {@code retain_last}
 * bound, older than the cutoff by the timestamp inside the manifest), with two conservative
 * exceptions, both left to the sweep, which expires them itself: a fork point of a branch (whether
 * Lance removes it depends on the branch's manifests) and, with a time cutoff, the versions after
 * the first one that does not qualify (knowing them would mean reading every retained manifest).
 * Tagged versions the policy reaches refuse the run before anything is deleted, with the cleanup's
 * error, or are kept with {@code error_if_tagged_old_versions => false}.
 *
 * <p>Transaction files are not deleted here: they are recorded with the other files, and the sweep
 * removes them where a cleanup would (a cleanup does not list files newer than its earliest
 * retained manifest, so an old tag that stays can keep an expired version's transaction file).
 */
final class ExpireVersions {
  private static final Logger LOG = LoggerFactory.getLogger(ExpireVersions.class);
  /** Expired versions per record: the run's memory is the references of this many manifests. */
  static final int RUN_LENGTH = 64;

  private final TableStorage storage;
  private final CleanupPlanner planner;
  private final CleanupMode mode;
  private final Consumer<CandidateFile> removedFileListener;
  private final Runnable ensureLeaseHeld;

  ExpireVersions(TableStorage storage, CleanupPlanner planner, CleanupMode mode,
      Consumer<CandidateFile> removedFileListener, Runnable ensureLeaseHeld) {
    this.storage = storage;
    this.planner = planner;
    this.mode = mode;
    this.removedFileListener = removedFileListener;
    this.ensureLeaseHeld = ensureLeaseHeld;
  }

  /** What a run did: its counters, the latest version its plan saw, and the manifests it decoded. */
  record Outcome(CleanupCounters counters, long readVersion, long manifestsRead) {}

  /** Expires what the policy lets go: old_versions, manifests and their bytes; a failed delete stops it. */
  Outcome run(DatasetCleanup cleanup) {
    CleanupPlan plan = CleanupRun.plan(storage, planner, cleanup);
    RetentionFacts facts = plan.facts();
    List<ManifestLocation> reachable = new ArrayList<>();
    List<ManifestLocation> tagged = new ArrayList<>();
    for (ManifestSlice slice : plan.slices()) {
      if (slice.role() != ManifestSlice.SliceRole.TABLE_VERSIONS) {
        continue;
      }
      for (ManifestLocation manifest : slice.manifests()) {
        if (!withinVersionBounds(facts, manifest.version())) {
          continue;
        }
        (facts.tagsByVersion().containsKey(manifest.version()) ? tagged : reachable).add(manifest);
      }
    }
    refuseTaggedOldVersions(facts, tagged);
    long manifestsRead = facts.policy().errorIfTaggedOldVersions() ? tagged.size() : 0;
    CleanupCounters counters = CleanupCounters.ZERO;
    for (int from = 0; from < reachable.size(); from += RUN_LENGTH) {
      List<ManifestLocation> run = reachable.subList(from, Math.min(reachable.size(), from + RUN_LENGTH));
      MarkResult marked = new MarkManifests(storage, facts).mark(slice(facts, run));
      manifestsRead += marked.summary().manifestsRead();
      counters = counters.plus(expire(facts, run, marked));
      boolean reachedCutoff = marked.expiredManifests().size() < run.size();
      if (reachedCutoff || counters.failedDeletes() > 0) {
        break;
      }
    }
    LOG.info("lance expire_versions {}: {}{}", facts.describe(), counters, mode == CleanupMode.DRY_RUN ? " (dry run)" : "");
    return new Outcome(counters, facts.latestVersion(), manifestsRead);
  }

  /** Below every version bound and not the latest; fork points stay for the sweep to judge. */
  private static boolean withinVersionBounds(RetentionFacts facts, long version) {
    boolean belowBound = facts.policy().beforeVersion().isEmpty() || version < facts.policy().beforeVersion().getAsLong();
    return version < facts.latestVersion() && belowBound && !facts.forkPoints().contains(version);
  }

  /** The cleanup's tag rule, before any delete: only tagged versions are read for it. */
  private void refuseTaggedOldVersions(RetentionFacts facts, List<ManifestLocation> tagged) {
    if (tagged.isEmpty() || !facts.policy().errorIfTaggedOldVersions()) {
      return;
    }
    MarkSummary summary = MarkSummary.EMPTY;
    for (ManifestLocation manifest : tagged) {
      summary = summary.plus(new MarkManifests(storage, facts).mark(slice(facts, List.of(manifest))).summary());
    }
    summary.refuseTaggedOldVersions(facts);
  }

  /** Records one run's expired versions, reads the record back, then deletes their manifests. */
  private CleanupCounters expire(RetentionFacts facts, List<ManifestLocation> run, MarkResult marked) {
    List<CandidateFile> manifests = marked.expiredManifests();
    if (manifests.isEmpty()) {
      return CleanupCounters.ZERO;
    }
    CleanupCounters counters = CleanupCounters.ZERO;
    if (mode == CleanupMode.DRY_RUN) {
      for (CandidateFile manifest : manifests) {
        counters = counters.record(manifest);
        removedFileListener.accept(manifest);
      }
      return counters;
    }
    ensureLeaseHeld.run();
    String record = new ExpiryRecords(storage, facts.dataset()).commit(expiredVersions(run, marked), onlyExpired(marked));
    LOG.info("lance expire_versions {}: {} versions recorded in {}", facts.describe(), manifests.size(), record);
    ensureLeaseHeld.run();
    Map<String, String> failures = new HashMap<>();
    List<String> paths = manifests.stream().map(CandidateFile::path).toList();
    int page = Math.max(1, storage.maxDeleteBatchSize());
    for (int from = 0; from < paths.size(); from += page) {
      storage.deleteBatch(paths.subList(from, Math.min(paths.size(), from + page)))
          .forEach(failure -> failures.put(failure.path(), failure.reason()));
    }
    for (CandidateFile manifest : manifests) {
      if (failures.containsKey(manifest.path())) {
        LOG.warn("lance expire_versions {}: could not delete {}: {}", facts.describe(), manifest.path(), failures.get(manifest.path()));
        continue;
      }
      counters = counters.record(manifest);
      removedFileListener.accept(manifest);
    }
    return counters.failed(failures.size());
  }

  private static List<ExpiryRecord.ExpiredVersion> expiredVersions(List<ManifestLocation> run, MarkResult marked) {
    Map<String, Long> versionByPath = new HashMap<>();
    run.forEach(manifest -> versionByPath.put(manifest.path(), manifest.version()));
    return marked.expiredManifests().stream()
        .map(manifest -> new ExpiryRecord.ExpiredVersion(versionByPath.get(manifest.path()), manifest.path()))
        .toList();
  }

  /**
   * The run's references that only expired versions hold: with kept-wins merging, a reference a
   * retained version of the run (past the cutoff) shares is not recorded, and needs no record.
   */
  private static Set<LedgerElement> onlyExpired(MarkResult marked) {
    Set<LedgerElement> elements = new TreeSet<>();
    for (ReferenceMark mark : marked.marks()) {
      if (mark.state() == MarkState.EXPIRED) {
        elements.add(new LedgerElement(mark.key(), mark.kind(), true));
      }
    }
    return elements;
  }

  private static ManifestSlice slice(RetentionFacts facts, List<ManifestLocation> manifests) {
    return new ManifestSlice(ManifestSlice.SliceRole.TABLE_VERSIONS, facts.dataset(), manifests);
  }
}
