package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.plan.VersionRetention;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mark stage for the versions of the dataset being cleaned, from the ledger: reads only the
 * manifests newer than the ledger's end, and gives exactly what {@link
 * dev.lancemaintenance.cleanup.stage.MarkManifests} gives for the same manifests (docs/ledger.md
 * says why each step is exact).
 *
 * <p>An element referenced in the version range {@code [from, to)} is referenced by exactly the
 * listed manifests in that range: every listed manifest up to the ledger's end is the very file
 * that was summarised (same name, length and modification time), and every newer one is decoded
 * now. Its mark is then the merge of those versions' marks: kept when one of them keeps its files,
 * expired when all of them go, none when no listed manifest is in the range (the full mark does not
 * see it either). Anything the ledger cannot vouch for (none yet, damaged, another table's, a
 * listed manifest it did not summarise or that changed) makes this run summarise every manifest
 * afresh: the full decode, never a guess.
 *
 * <p>Memory: the folded ledger, that is one entry per version and per element range of the
 * versions the table still lists, plus the references of the newest version.
 */
public final class IncrementalMark {
  private static final Logger LOG = LoggerFactory.getLogger(IncrementalMark.class);

  private final TableStorage storage;
  private final RetentionFacts facts;
  private final Clock clock;
  private final Ledger ledger;

  public IncrementalMark(TableStorage storage, RetentionFacts facts, Clock clock) {
    this.storage = storage;
    this.facts = facts;
    this.clock = clock;
    this.ledger = new Ledger(storage, facts.dataset(), clock);
  }

  /**
   * What marking the dataset's versions gave, and the ledger commit that records what this run
   * learnt (call {@link #commitLedger} once the run may write, never in a dry run).
   *
   * @param result the marks, expired manifests and summary, as the full mark stage gives them
   *     ({@link MarkSummary#manifestsRead} counts the manifests actually decoded)
   * @param ledgerProblem why the ledger was not used, when it was not
   * @param state the ledger folded and continued by this run's summaries: every listed version
   */
  public record Outcome(MarkResult result, Optional<String> ledgerProblem, Consumer<TableStorage> commitLedger, LedgerState state) {
    /**
     * Commits what this run learnt to the ledger, through {@code storage} (the table's, open until
     * the commit returns). Best effort: a lost race or a store error is logged and only costs the
     * next run a full mark.
     */
    public void commit(TableStorage storage) {
      commitLedger.accept(storage);
    }
  }

  /**
   * Reads the ledger and decides what must be decoded: the listed manifests newer than its end, or
   * every listed manifest when it cannot be used (none yet, damaged, another table's, or a listed
   * manifest at or below its end that it did not summarise).
   *
   * @param listed every manifest listed in the dataset's {@code _versions/}, in version order
   */
  public Pending begin(List<ManifestLocation> listed) {
    return begin(listed, LedgerReadAhead.none());
  }

  /**
   * As {@link #begin(List)}, with the ledger {@code ahead} read beside the plan when it was started
   * for this dataset (the identity check against {@code listed} runs here, whenever it was read).
   */
  public Pending begin(List<ManifestLocation> listed, LedgerReadAhead ahead) {
    LedgerRead read = ahead.readOf(ledger);
    Optional<String> problem = read.problem().or(() -> mismatch(read.state().orElseThrow(), listed));
    problem.ifPresent(why -> LOG.info("lance cleanup {}: marking every manifest ({})", facts.describe(), why));
    return new Pending(listed, read, problem);
  }

  /** A run between reading the ledger and having the new manifests summarised. */
  public final class Pending {
    private final List<ManifestLocation> listed;
    private final LedgerRead read;
    private final Optional<String> problem;
    private final LedgerState state;
    private final List<ManifestLocation> toDecode;

    private Pending(List<ManifestLocation> listed, LedgerRead read, Optional<String> problem) {
      this.listed = List.copyOf(listed);
      this.read = read;
      this.problem = problem;
      this.state = problem.isEmpty() ? read.state().orElseThrow() : new LedgerState(ledger.fingerprint(), ledger.dataset());
      long end = state.endVersion();
      this.toDecode = listed.stream().filter(location -> location.version() > end).toList();
    }

    /** The manifests to decode, in version order: the only manifest reads of the run's own versions. */
    public List<ManifestLocation> toDecode() {
      return toDecode;
    }

    /**
     * The marks, from the ledger continued by {@code summaries} (of {@link ManifestRun#cut} of
     * {@link #toDecode}, in order).
     *
     * @return empty when the ledger cannot describe this dataset at all (a manifest whose recorded
     *     version differs from its name's): mark it with the full stage
     */
    public Optional<Outcome> finish(List<RunSummary> summaries) {
      LedgerSegment segment;
      try {
        segment = VersionSummaries.join(ledger, state, summaries);
      } catch (VersionSummaries.CannotSummariseException e) {
        LOG.warn("lance cleanup {}: the ledger cannot describe this dataset, marking in full: {}", facts.describe(), e.getMessage());
        return Optional.empty();
      }
      state.apply("this run's summary", segment);
      Set<Long> listedVersions = new HashSet<>();
      listed.forEach(location -> listedVersions.add(location.version()));
      MarkResult result = markFrom(state, listed, toDecode.size());
      LedgerRead base = problem.isEmpty() ? read : LedgerRead.unusable(read.headGeneration(), problem.get());
      Consumer<TableStorage> commit = on -> {
        if (segment.versions().isEmpty() && problem.isEmpty()) {
          return;
        }
        try {
          new Ledger(on, facts.dataset(), clock).append(base, segment, state, listedVersions);
        } catch (RuntimeException e) {
          // The ledger only makes later runs cheaper: a store that refuses it must not stop this cleanup.
          LOG.warn("lance cleanup {}: could not write the maintenance ledger (the next run marks in full): {}",
              facts.describe(), e.getMessage());
        }
      };
      return Optional.of(new Outcome(result, problem, commit, state));
    }
  }

  /**
   * Why the ledger cannot answer for these listed manifests: one of them, at or below the ledger's
   * end, is not the file the ledger summarised under its number (replaced, renamed by a change of
   * naming scheme, or new under an old number). Manifests the ledger knows but the store no longer
   * lists are fine: removed versions mark nothing.
   */
  static Optional<String> mismatch(LedgerState state, List<ManifestLocation> listed) {
    for (ManifestLocation location : listed) {
      if (location.version() > state.endVersion()) {
        continue;
      }
      LedgerVersion summarised = state.versions().get(location.version());
      if (summarised == null) {
        return Optional.of(location.path() + " (version " + location.version() + ") is new under a number the ledger has passed");
      }
      if (!summarised.summarises(location)) {
        return Optional.of(location.path() + " is not the manifest the ledger summarised for version " + location.version()
            + " (name, length or modification time differ)");
      }
    }
    return Optional.empty();
  }

  private MarkResult markFrom(LedgerState state, List<ManifestLocation> listed, int decoded) {
    int count = listed.size();
    long[] versions = new long[count];
    // keptBefore[i]: how many of the first i listed versions keep their files.
    int[] keptBefore = new int[count + 1];
    // mustListBefore[i]: how many of them keep files the listing must show (all but those newer than an inventory).
    int[] mustListBefore = new int[count + 1];
    List<CandidateFile> expiredManifests = new ArrayList<>();
    MarkSummary summary = MarkSummary.EMPTY;
    for (int i = 0; i < count; i++) {
      ManifestLocation location = listed.get(i);
      LedgerVersion version = state.versions().get(location.version());
      versions[i] = location.version();
      VersionRetention retention = facts.classify(version.version(), version.timestampNanos());
      keptBefore[i + 1] = keptBefore[i] + (retention.keepsFiles() ? 1 : 0);
      mustListBefore[i + 1] = mustListBefore[i]
          + (retention.keepsFiles() && facts.listingMustShowFilesOf(version.timestampNanos()) ? 1 : 0);
      summary = summary.plus(MarkSummary.ofVersion(facts, version.version(), version.timestampNanos(), retention));
      if (retention == VersionRetention.EXPIRED) {
        expiredManifests.add(new CandidateFile(location.path(), FileKind.MANIFEST, location.size(), RemovalReason.EXPIRED_VERSION));
      }
    }
    Map<String, ReferenceMark> marks = new HashMap<>();
    state.forEachRange((element, rangeFrom, rangeTo) -> {
      int from = lowerBound(versions, rangeFrom);
      int to = lowerBound(versions, rangeTo);
      if (from == to) {
        return true; // no listed manifest references it: the full mark does not see it either
      }
      boolean kept = keptBefore[to] - keptBefore[from] > 0;
      boolean mustList = element.certain() && mustListBefore[to] - mustListBefore[from] > 0;
      MarkState mark = !kept ? MarkState.EXPIRED : mustList ? MarkState.KEPT : MarkState.KEPT_IF_PRESENT;
      ReferenceMark reference = new ReferenceMark(element.key(), element.kind(), mark);
      marks.merge(reference.key(), reference, ReferenceMark::merge);
      return true;
    });
    // Read counts what was decoded, not what was classified: the one figure that differs from a full mark.
    MarkSummary read = new MarkSummary(decoded, summary.expiredVersions(), summary.earliestRetainedNanos(), summary.taggedOldVersions());
    return new MarkResult(marks.values(), expiredManifests, read);
  }

  private static int lowerBound(long[] sorted, long value) {
    int at = Arrays.binarySearch(sorted, value);
    if (at >= 0) {
      return at;
    }
    return -at - 1;
  }
}
