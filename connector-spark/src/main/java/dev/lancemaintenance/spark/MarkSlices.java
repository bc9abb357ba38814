package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stage {@code mark} on an executor: runs each {@link MarkTask} of the partition (decodes a slice of
 * manifests, or hands on marks the driver derived from the ledger). One storage per partition; the
 * engine puts one task in each partition, so a task holds one slice's distinct references.
 */
final class MarkSlices implements FlatMapFunction<Iterator<MarkTask>, SliceMarks> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;
  private final RetentionFacts facts;

  MarkSlices(Broadcast<TableStorageFactory> storageFactory, TableLocation table, RetentionFacts facts) {
    this.storageFactory = storageFactory;
    this.table = table;
    this.facts = facts;
  }

  @Override
  public Iterator<SliceMarks> call(Iterator<MarkTask> tasks) {
    List<SliceMarks> marked = new ArrayList<>();
    try (TableStorage storage = storageFactory.value().open(table)) {
      tasks.forEachRemaining(task -> marked.add(SliceMarks.of(task.mark(storage, facts))));
    }
    return marked.iterator();
  }
}
