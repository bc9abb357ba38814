package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * Stage {@code mark} with the ledger (parallel, in a job of its own before the cleanup job):
 * decodes one run of manifests the ledger cannot answer for and returns how each differs from the
 * one before ({@link VersionSummaries}); the client joins the runs.
 */
public final class SummariseRuns extends RichMapFunction<ManifestRun, RunSummary> {
  private final SubtaskStorage storage;
  private final DatasetRef dataset;

  public SummariseRuns(TableLocation table, TableStorageFactory storageFactory, DatasetRef dataset) {
    this.storage = new SubtaskStorage(table, storageFactory);
    this.dataset = dataset;
  }

  @Override
  public void open(OpenContext openContext) {
    storage.open();
  }

  @Override
  public RunSummary map(ManifestRun run) {
    return new VersionSummaries(storage.get(), dataset).summarise(run);
  }

  @Override
  public void close() {
    storage.close();
  }
}
