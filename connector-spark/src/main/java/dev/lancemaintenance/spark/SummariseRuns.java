package dev.lancemaintenance.spark;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stage {@code mark} with the ledger, on an executor: decodes one run of manifests the ledger cannot
 * answer for and returns how each differs from the one before ({@link VersionSummaries}); the driver
 * joins the runs.
 */
final class SummariseRuns implements Function<ManifestRun, RunSummary> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;
  private final DatasetRef dataset;

  SummariseRuns(Broadcast<TableStorageFactory> storageFactory, TableLocation table, DatasetRef dataset) {
    this.storageFactory = storageFactory;
    this.table = table;
    this.dataset = dataset;
  }

  @Override
  public RunSummary call(ManifestRun run) {
    try (TableStorage storage = storageFactory.value().open(table)) {
      return new VersionSummaries(storage, dataset).summarise(run);
    }
  }
}
