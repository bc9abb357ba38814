package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.ReferenceScanner;
import dev.lancemaintenance.format.ScannedManifest;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Summarises manifests into a ledger segment: decodes each (the only manifest reads of an
 * incremental run) and records how its references differ from the version summarised before it.
 * The differences come from the two manifests themselves, never from a transaction file, so every
 * operation is summarised exactly, one that brings old files back (a Restore) included.
 */
final class VersionSummaries {
  private final TableStorage storage;
  private final DatasetRef dataset;
  private final ReferenceScanner scanner;

  VersionSummaries(TableStorage storage, DatasetRef dataset) {
    this.storage = storage;
    this.dataset = dataset;
    this.scanner = new ReferenceScanner(storage.location(), dataset.dir());
  }

  /**
   * The segment that continues {@code state} with {@code manifests} (newer than its end, in
   * version order). Throws {@link CannotSummariseException} for a manifest whose recorded version is
   * not the one its name gives (the ledger keys versions by both; such a table is marked in full).
   */
  LedgerSegment summarise(Ledger ledger, LedgerState state, List<ManifestLocation> manifests) {
    Set<LedgerElement> previous = new HashSet<>(state.openElements());
    List<LedgerVersion> versions = new ArrayList<>();
    List<LedgerSegment.Open> opens = new ArrayList<>();
    List<LedgerSegment.Close> closes = new ArrayList<>();
    for (ManifestLocation location : manifests) {
      if (Thread.currentThread().isInterrupted()) {
        throw new java.util.concurrent.CancellationException("cleanup stopped: another task of the run failed");
      }
      ScannedManifest manifest = ManifestReader.scan(storage, location, scanner);
      if (manifest.version() != location.version()) {
        throw new CannotSummariseException(location.path() + " records version " + manifest.version());
      }
      long version = manifest.version();
      versions.add(new LedgerVersion(version, location.path(), location.size(), location.modificationTimeMillis(),
          manifest.timestampNanos()));
      Set<LedgerElement> current = elementsOf(manifest);
      for (LedgerElement element : previous) {
        if (!current.contains(element)) {
          closes.add(new LedgerSegment.Close(element, version));
        }
      }
      for (LedgerElement element : current) {
        if (!previous.contains(element)) {
          opens.add(new LedgerSegment.Open(element, version));
        }
      }
      previous = current;
    }
    return ledger.segment(versions, opens, closes);
  }

  /** What the mark stage marks of a manifest: references inside the dataset's managed directories. */
  private Set<LedgerElement> elementsOf(ScannedManifest manifest) {
    Set<LedgerElement> elements = new HashSet<>();
    for (FileReference reference : manifest.references()) {
      // The same filter as MarkManifests: a reference outside the dataset is never listed, never deleted.
      if (!reference.external() && ReferenceKeys.isInDataset(dataset, reference.path())) {
        elements.add(new LedgerElement(reference.path(), reference.kind(), reference.certain()));
      }
    }
    return elements;
  }

  /** A table the ledger cannot describe; its runs mark every manifest. */
  static final class CannotSummariseException extends RuntimeException {
    CannotSummariseException(String message) {
      super(message);
    }
  }
}
