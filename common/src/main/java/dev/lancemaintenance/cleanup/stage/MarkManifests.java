package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.ReferenceGroup;
import dev.lancemaintenance.format.ReferenceScanner;
import dev.lancemaintenance.format.ScannedManifest;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage 2, mark: decodes the manifests of one slice and says, for every file they reference,
 * whether a retained version needs it.
 *
 * <p>Versions of the table are classified by {@link RetentionFacts#classify}; a retained version
 * marks its files {@link MarkState#KEPT}, a removed one {@link MarkState#EXPIRED}. A fork point
 * keeps its manifest but marks its files expired, as Lance 7 does: the branch's own manifests
 * mark what the branch reads, and the rest of the fork point's files (its transaction file, say)
 * go. Versions of a
 * descendant branch always mark {@code KEPT}: a branch reads its parent's files through its base
 * paths, and a cleanup of the parent must never take them away. References outside the managed
 * directories of the dataset being cleaned (another dataset of the table, or outside the table's
 * root) are not marked: the list stage never sees such files, so nothing there can be deleted.
 *
 * <p>Any manifest that cannot be read fails the task, and with it the run, before any delete: an
 * I/O error and a corrupt manifest look alike, and skipping either could delete live data.
 *
 * <p>Only the fields of a manifest that name files are decoded ({@link ManifestReader#scan}), and a
 * fragment that an earlier manifest of the slice repeated byte for byte is neither decoded nor
 * marked again (the scanner returns the same {@link ReferenceGroup}): the work grows with the
 * distinct fragments of a slice, not with fragments times manifests. Memory: one scanned manifest
 * at a time, one entry per distinct reference key and per distinct fragment of the slice, and one
 * per expired manifest of the slice; slices are runs of consecutive versions, which share most of
 * their files, so the entries grow with the files of about one version, not of the table.
 */
public final class MarkManifests {
  private final TableStorage storage;
  private final RetentionFacts facts;

  public MarkManifests(TableStorage storage, RetentionFacts facts) {
    this.storage = storage;
    this.facts = facts;
  }

  public MarkResult mark(ManifestSlice slice) {
    Map<String, ReferenceMark> marks = new HashMap<>();
    List<CandidateFile> expiredManifests = new ArrayList<>();
    Map<ReferenceGroup, MarkState> markedGroups = new IdentityHashMap<>();
    MarkState previousState = null;
    MarkSummary summary = MarkSummary.EMPTY;
    ReferenceScanner scanner = new ReferenceScanner(storage.location(), slice.dataset());
    for (ManifestLocation location : slice.manifests()) {
      ScannedManifest manifest = ManifestReader.scan(storage, location, scanner);
      MarkState state = MarkState.KEPT;
      if (slice.role() == ManifestSlice.SliceRole.TABLE_VERSIONS) {
        VersionRetention retention = facts.classify(manifest.version(), manifest.timestampNanos());
        summary = summary.plus(summarize(manifest, retention));
        state = retention.keepsFiles() ? keptState(manifest) : MarkState.EXPIRED;
        if (retention == VersionRetention.EXPIRED) {
          expiredManifests.add(
              new CandidateFile(location.path(), FileKind.MANIFEST, location.size(), RemovalReason.EXPIRED_VERSION));
        }
      } else {
        summary = summary.plus(new MarkSummary(1, 0, Long.MAX_VALUE, Map.of()));
        state = keptState(manifest);
      }
      // The leading fragments shared with the previous manifest are marked already, at its state.
      int first = previousState != null && previousState.merge(state) == previousState ? manifest.sharedWithPrevious() : 0;
      previousState = state;
      List<ReferenceGroup> groups = manifest.groups();
      for (ReferenceGroup group : groups.subList(first, groups.size())) {
        MarkState before = markedGroups.get(group);
        if (before != null && before.merge(state) == before) {
          // The same fragment, already marked at least as strongly by an earlier manifest of the slice.
          continue;
        }
        markedGroups.put(group, before == null ? state : before.merge(state));
        markAll(group, state, marks);
      }
    }
    return new MarkResult(marks.values(), expiredManifests, summary);
  }

  /**
   * How a retained (or branch) manifest marks its files: {@link MarkState#KEPT}, or {@link
   * MarkState#KEPT_IF_PRESENT} when the run lists from an inventory taken before the version was
   * committed, which cannot be expected to show the files it wrote.
   */
  private MarkState keptState(ScannedManifest manifest) {
    return facts.listingMustShowFilesOf(manifest.timestampNanos()) ? MarkState.KEPT : MarkState.KEPT_IF_PRESENT;
  }

  private void markAll(ReferenceGroup group, MarkState state, Map<String, ReferenceMark> marks) {
    for (FileReference reference : group.references()) {
      if (reference.external() || !ReferenceKeys.isInDataset(facts.dataset(), reference.path())) {
        // Outside the dataset being cleaned: never listed, so never deleted by this run.
        continue;
      }
      MarkState referenceState =
          state == MarkState.KEPT && !reference.certain() ? MarkState.KEPT_IF_PRESENT : state;
      ReferenceMark mark = new ReferenceMark(reference.path(), reference.kind(), referenceState);
      marks.merge(mark.key(), mark, ReferenceMark::merge);
    }
  }

  private MarkSummary summarize(ScannedManifest manifest, VersionRetention retention) {
    return MarkSummary.ofVersion(facts, manifest.version(), manifest.timestampNanos(), retention);
  }
}
