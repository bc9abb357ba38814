package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReadAhead;
import dev.lancemaintenance.format.ManifestsReadEarly;
import dev.lancemaintenance.format.ReferenceScanner;
import dev.lancemaintenance.format.ScannedManifest;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.List;

/**
 * Summarises manifests for the ledger: decodes each (the only manifest reads of an incremental run)
 * and records how its references differ from the version summarised before it. The differences
 * come from the two manifests themselves, never from a transaction file, so every operation is
 * summarised exactly, one that brings old files back (a Restore) included.
 *
 * <p>Runs of manifests are summarised in parallel tasks ({@link #summarise}, on an executor or a
 * thread); the driver joins them into one segment ({@link #join}). A version's differences are
 * found from the reference groups that changed since the manifest before ({@link
 * ReferencedElements}), so summarising it costs what it changed, not what the table holds. Memory
 * per task: the references of the current manifest (one count per element) and the bytes a run
 * reads ahead. Not thread-safe (its scanner caches decoded
 * fragments): one per task.
 */
public final class VersionSummaries {
  private final TableStorage storage;
  private final DatasetRef dataset;
  private final ReferenceScanner scanner;
  /** Reads started before the summary that may stand for the manifests it decodes. */
  private final ManifestsReadEarly early;

  public VersionSummaries(TableStorage storage, DatasetRef dataset) {
    this(storage, dataset, ManifestsReadEarly.none());
  }

  /** Summaries that take the reads {@code early} started for the manifests they decode ({@link ManifestsReadEarly#take}). */
  public VersionSummaries(TableStorage storage, DatasetRef dataset, ManifestsReadEarly early) {
    this.storage = storage;
    this.dataset = dataset;
    this.scanner = new ReferenceScanner(storage.location(), dataset);
    this.early = early;
  }

  /**
   * Decodes the run's base and manifests; the first manifest of a run without base opens all it
   * references. The manifests are read ahead ({@link ManifestReadAhead}) and decoded in order: on an
   * object store a run of new manifests (the daily run's one run) costs about one round trip in a
   * row, not one each. Each run of the cut reads ahead its share, so that the runs summarised at
   * once (a first or rebuilt ledger's many) keep about as many reads in flight together as one
   * would alone. Memory: the references of one manifest and the run's share of {@link
   * ManifestReadAhead}'s bytes read ahead.
   */
  public RunSummary summarise(ManifestRun run) {
    List<ManifestLocation> inOrder = new ArrayList<>(run.base());
    inOrder.addAll(run.manifests());
    try (ManifestReadAhead reads = ManifestReadAhead.share(storage, inOrder, run.runsInCut(), early)) {
      return summarise(run, reads);
    }
  }

  private RunSummary summarise(ManifestRun run, ManifestReadAhead reads) {
    ReferencedElements referenced = new ReferencedElements(dataset);
    if (!run.base().isEmpty()) {
      referenced.moveTo(reads.scanNext(scanner), opened -> {}, closed -> {});
    }
    List<LedgerVersion> versions = new ArrayList<>();
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    List<String> misnumbered = new ArrayList<>();
    for (ManifestLocation location : run.manifests()) {
      ScannedManifest manifest = reads.scanNext(scanner);
      if (manifest.version() != location.version()) {
        misnumbered.add(location.path() + " records version " + manifest.version());
      }
      long version = location.version();
      versions.add(new LedgerVersion(version, location.path(), location.size(), location.modificationTimeMillis(),
          manifest.timestampNanos()));
      referenced.moveTo(manifest,
          element -> opens.add(new LedgerSegment.Open(element, version)),
          element -> closes.add(new LedgerSegment.Close(element, version)));
    }
    return new RunSummary(versions, opens, closes, misnumbered);
  }

  /**
   * The segment that continues {@code state} with {@code runs} (consecutive, in version order, the
   * first without base). The first run opened everything its first manifest references; against the
   * state's newest references, that becomes what it opens and closes. Throws {@link
   * CannotSummariseException} when a run found a manifest whose recorded version is not its name's
   * (the ledger keys versions by both; such a dataset is marked in full).
   */
  static LedgerSegment join(Ledger ledger, LedgerState state, List<RunSummary> runs) {
    List<LedgerVersion> versions = new ArrayList<>();
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    for (RunSummary run : runs) {
      if (!run.misnumbered().isEmpty()) {
        throw new CannotSummariseException(run.misnumbered().get(0));
      }
      versions.addAll(run.versions());
      opens.addAll(run.opens());
      closes.addAll(run.closes());
    }
    // The first manifest's opens are all it references: joined against the ledger's newest version.
    return state.joined(ledger.wholeFirstSegment(versions, opens, closes));
  }

  /** A dataset the ledger cannot describe; its runs mark every manifest. */
  static final class CannotSummariseException extends RuntimeException {
    CannotSummariseException(String message) {
      super(message);
    }
  }
}
