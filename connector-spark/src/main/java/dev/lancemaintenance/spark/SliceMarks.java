package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import java.io.Serializable;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import scala.Tuple2;

/**
 * One mark task's output in a form Spark can cache and ship: the task's marks, the manifests of
 * its expired versions and its summary. The mark RDD is cached once and read three ways (marks
 * shuffled by key, expired manifests, summaries reduced to the driver), so each manifest is decoded
 * once.
 */
record SliceMarks(List<ReferenceMark> marks, List<CandidateFile> expiredManifests, MarkSummary summary)
    implements Serializable {
  SliceMarks {
    marks = List.copyOf(marks);
    expiredManifests = List.copyOf(expiredManifests);
    Objects.requireNonNull(summary, "summary");
  }

  static SliceMarks of(MarkResult result) {
    return new SliceMarks(List.copyOf(result.marks()), result.expiredManifests(), result.summary());
  }

  MarkResult toResult() {
    return new MarkResult(marks, expiredManifests, summary);
  }

  /** The marks as (reference key, state) pairs, for the shuffle by key. */
  static Iterator<Tuple2<String, MarkState>> keyedStates(SliceMarks slice) {
    return slice.marks.stream().map(mark -> new Tuple2<>(mark.key(), mark.state())).iterator();
  }

  static Iterator<CandidateFile> expiredManifestsOf(SliceMarks slice) {
    return slice.expiredManifests.iterator();
  }

  static MarkSummary summaryOf(SliceMarks slice) {
    return slice.summary;
  }
}
