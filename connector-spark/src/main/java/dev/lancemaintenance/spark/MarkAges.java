package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.report.AgeMarks;
import dev.lancemaintenance.report.MarkReferenceAges;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.report.VersionStamp;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import scala.Tuple2;

/**
 * The storage report's mark on an executor: decodes the manifests of each slice of the partition
 * with {@link MarkReferenceAges}, as {@link MarkSlices} does for a cleanup. One storage per
 * partition, one slice per partition.
 */
final class MarkAges implements FlatMapFunction<Iterator<ManifestSlice>, MarkAges.SliceAges> {
  private static final long serialVersionUID = 1L;

  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;
  private final RetentionFacts facts;

  MarkAges(Broadcast<TableStorageFactory> storageFactory, TableLocation table, RetentionFacts facts) {
    this.storageFactory = storageFactory;
    this.table = table;
    this.facts = facts;
  }

  @Override
  public Iterator<SliceAges> call(Iterator<ManifestSlice> slices) {
    List<SliceAges> marked = new ArrayList<>();
    try (TableStorage storage = storageFactory.value().open(table)) {
      MarkReferenceAges mark = new MarkReferenceAges(storage, facts);
      slices.forEachRemaining(slice -> marked.add(SliceAges.of(mark.mark(slice))));
    }
    return marked.iterator();
  }

  /** One slice's ages and version stamps in a form Spark can cache and ship. */
  record SliceAges(List<ReferenceAge> ages, List<VersionStamp> versions) implements Serializable {
    SliceAges {
      ages = List.copyOf(ages);
      versions = List.copyOf(versions);
    }

    static SliceAges of(AgeMarks marks) {
      return new SliceAges(List.copyOf(marks.ages()), marks.versions());
    }

    /** The ages as (reference key, age) pairs, for the shuffle by key. */
    static Iterator<Tuple2<String, ReferenceAge>> keyedAges(SliceAges slice) {
      return slice.ages.stream().map(age -> new Tuple2<>(age.key(), age)).iterator();
    }

    static Iterator<VersionStamp> versionsOf(SliceAges slice) {
      return slice.versions.iterator();
    }
  }
}
