package dev.lancemaintenance.ledger;

import java.io.Serializable;
import java.util.List;

/**
 * What one task learnt from a {@link ManifestRun}: each manifest's version, and how its references
 * differ from the manifest before it (for the first run, from none).
 *
 * @param versions the summarised versions, in order
 * @param opens elements a version references and the one before did not
 * @param closes elements the one before referenced and a version does not
 * @param misnumbered manifests whose recorded version is not their name's: the ledger cannot describe
 *     such a dataset, which is then marked in full
 */
public record RunSummary(
    List<LedgerVersion> versions, List<LedgerSegment.Open> opens, List<LedgerSegment.Close> closes, List<String> misnumbered)
    implements Serializable {
  public RunSummary {
    versions = List.copyOf(versions);
    opens = List.copyOf(opens);
    closes = List.copyOf(closes);
    misnumbered = List.copyOf(misnumbered);
  }
}
