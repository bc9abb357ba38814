package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.util.List;
import java.util.OptionalLong;

/**
 * How many manifests a daily run from the newest key snapshot would decode, foretold from the
 * names in the dataset's ledger directory alone (one listing, no file read): the listed versions
 * above the newest segment's end ({@link LedgerDirectory#newestSegmentEnd}, which a run on the key
 * snapshot's path and a distributed run both write beside the snapshot of the same end). What a
 * fleet's worker weighs before it runs a large table's daily cleanup itself, without reading the
 * snapshot twice (once to choose, once to run).
 *
 * <p>Only a forecast, used where a wrong one costs time, never an answer: the run it sends to the
 * local engine reads the snapshot and makes every check of {@link KeySnapshotMark#versionsToDecode}
 * (the fingerprint, the versions at or below its end, no branch or inventory), and takes today's
 * path, exact and bounded in memory, when one fails. A segment committed without its snapshot after
 * it foretells too few versions (the run then decodes more than foretold); a directory with no key
 * snapshot or no segment foretells nothing (the table goes where it went before).
 */
public final class KeySnapshotForecast {
  private KeySnapshotForecast() {}

  /**
   * The versions of {@code listed} (the dataset's {@code _versions/} listing) above the newest
   * segment's end, or empty when {@code dataset}'s ledger directory holds no key snapshot or no
   * segment. Lists the directory once; a listing that fails throws, as the listing does.
   */
  public static OptionalLong versionsToDecode(TableStorage storage, DatasetRef dataset, List<ManifestLocation> listed) {
    LedgerDirectory directory = LedgerDirectory.list(storage, dataset);
    if (directory.keySnapshots().isEmpty()) {
      return OptionalLong.empty();
    }
    OptionalLong end = directory.newestSegmentEnd();
    if (end.isEmpty()) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(KeySnapshotMark.versionsAbove(listed, end.getAsLong()));
  }
}
