package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.storage.FileEntry;
import java.util.Collections;
import java.util.Iterator;
import java.util.Optional;
import org.apache.spark.api.java.function.FlatMapFunction;
import scala.Tuple2;

/**
 * Stage 4 on an executor: one listed file joined with the mark of its reference key (absent when no
 * manifest references it), decided by {@link DecideByPath}.
 */
final class DecideFiles
    implements FlatMapFunction<Tuple2<String, Tuple2<FileEntry, org.apache.spark.api.java.Optional<MarkState>>>, CandidateFile> {
  private static final long serialVersionUID = 1L;

  private final DecisionContext context;

  DecideFiles(DecisionContext context) {
    this.context = context;
  }

  /** A listed file under its reference key in the run's dataset, ready to be joined with the marks. */
  static Tuple2<String, FileEntry> keyed(DecisionContext context, FileEntry file) {
    return new Tuple2<>(context.keyOf(file.path()), file);
  }

  @Override
  public Iterator<CandidateFile> call(
      Tuple2<String, Tuple2<FileEntry, org.apache.spark.api.java.Optional<MarkState>>> joined) {
    FileEntry file = joined._2()._1();
    org.apache.spark.api.java.Optional<MarkState> mark = joined._2()._2();
    Optional<CandidateFile> decided =
        new DecideByPath(context).decide(file, mark.isPresent() ? Optional.of(mark.get()) : Optional.empty());
    return decided.map(Collections::singleton).orElse(Collections.emptySet()).iterator();
  }
}
