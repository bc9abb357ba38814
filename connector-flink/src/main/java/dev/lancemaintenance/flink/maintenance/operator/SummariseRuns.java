package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * Stage {@code mark} with the ledger (parallel, in a job of its own before the cleanup job):
 * decodes one run of manifests the ledger cannot answer for and returns how each differs from the
 * one before ({@link VersionSummaries}); the client joins the runs.
 */
public final class SummariseRuns extends RichMapFunction<ManifestRun, RunSummary> {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final String datasetDir;
  private transient TableStorage storage;

  public SummariseRuns(TableLocation table, TableStorageFactory storageFactory, String datasetDir) {
    this.table = table;
    this.storageFactory = storageFactory;
    this.datasetDir = datasetDir;
  }

  @Override
  public void open(OpenContext openContext) {
    storage = storageFactory.open(table);
  }

  @Override
  public RunSummary map(ManifestRun run) {
    return new VersionSummaries(storage, datasetDir).summarise(run);
  }

  @Override
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
