package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Iterator;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.metrics.Counter;
import org.apache.flink.util.Collector;

/**
 * Stage {@code list} (parallel): walks one managed directory per record through {@link
 * ListManagedFiles} and emits its files as they are listed, holding none of them.
 */
public final class ListFiles extends RichFlatMapFunction<ListingTask, FileEntry> {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private transient TableStorage storage;
  private transient Counter filesListed;

  public ListFiles(TableLocation table, TableStorageFactory storageFactory) {
    this.table = table;
    this.storageFactory = storageFactory;
  }

  @Override
  public void open(OpenContext openContext) {
    storage = storageFactory.open(table);
    filesListed = MaintenanceMetrics.ofStage(getRuntimeContext().getMetricGroup(), CleanupStage.LIST)
        .counter(MaintenanceMetrics.FILES_LISTED);
  }

  @Override
  public void flatMap(ListingTask task, Collector<FileEntry> out) {
    for (Iterator<FileEntry> files = ListManagedFiles.files(storage, task); files.hasNext(); ) {
      out.collect(files.next());
      filesListed.inc();
    }
  }

  @Override
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
