package dev.lancemaintenance.spark;

import dev.lancemaintenance.report.ClassifyFiles;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.report.ReportContext;
import dev.lancemaintenance.report.StorageCounters;
import dev.lancemaintenance.storage.FileEntry;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import org.apache.spark.api.java.function.FlatMapFunction;
import scala.Tuple2;

/**
 * The storage report's classify on an executor: one partition of the co-group of listed files and
 * ages by reference key, added to one {@link StorageCounters} with {@link ClassifyFiles}; only the
 * counters leave the task.
 */
final class ClassifyPartition
    implements FlatMapFunction<Iterator<Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<ReferenceAge>>>>, StorageCounters> {
  private static final long serialVersionUID = 1L;

  private final ReportContext context;

  ClassifyPartition(ReportContext context) {
    this.context = context;
  }

  /** A listed file under its reference key, for the co-group. */
  static Tuple2<String, FileEntry> keyed(ReportContext context, FileEntry file) {
    return new Tuple2<>(new ClassifyFiles(context).keyOf(file.path()), file);
  }

  @Override
  public Iterator<StorageCounters> call(Iterator<Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<ReferenceAge>>>> keys) {
    ClassifyFiles classify = new ClassifyFiles(context);
    StorageCounters counters = context.newCounters();
    keys.forEachRemaining(key -> {
      Optional<ReferenceAge> age = Optional.empty();
      for (ReferenceAge each : key._2()._2()) {
        age = Optional.of(age.map(a -> a.merge(each)).orElse(each));
      }
      for (FileEntry file : key._2()._1()) {
        classify.add(file, age, counters);
      }
    });
    return List.of(counters).iterator();
  }
}
