package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * {@code verify => true} (parallel, in a job of its own before the cleanup job): the full mark of
 * one task, returned whole to the client, which compares it with the marks the ledger gave.
 */
public final class MarkInFull extends RichMapFunction<MarkTask, MarkTask.Derived> {
  private final SubtaskStorage storage;
  private final RetentionFacts facts;

  public MarkInFull(TableLocation table, TableStorageFactory storageFactory, RetentionFacts facts) {
    this.storage = new SubtaskStorage(table, storageFactory);
    this.facts = facts;
  }

  @Override
  public void open(OpenContext openContext) {
    storage.open();
  }

  @Override
  public MarkTask.Derived map(MarkTask task) {
    return MarkTask.Derived.of(task.mark(storage.get(), facts));
  }

  @Override
  public void close() {
    storage.close();
  }
}
