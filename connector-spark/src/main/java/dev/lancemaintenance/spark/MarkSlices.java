package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkManifests;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;

/**
 * Stage {@code mark} on an executor: decodes the manifests of each slice of the partition with {@link
 * MarkManifests}. One storage per partition; the engine puts one slice in each partition, so a
 * task holds one slice's distinct references.
 */
final class MarkSlices implements FlatMapFunction<Iterator<ManifestSlice>, SliceMarks> {
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
  public Iterator<SliceMarks> call(Iterator<ManifestSlice> slices) {
    List<SliceMarks> marked = new ArrayList<>();
    try (TableStorage storage = storageFactory.value().open(table)) {
      MarkManifests mark = new MarkManifests(storage, facts);
      slices.forEachRemaining(slice -> marked.add(SliceMarks.of(mark.mark(slice))));
    }
    return marked.iterator();
  }
}
