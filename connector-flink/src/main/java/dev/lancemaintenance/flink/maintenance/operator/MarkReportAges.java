package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.report.AgeMarks;
import dev.lancemaintenance.report.MarkReferenceAges;
import dev.lancemaintenance.report.VersionStamp;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * The report's mark (parallel): decodes one slice of manifests per record with {@link
 * MarkReferenceAges}; the ages of its reference keys go to the main output, keyed downstream, the
 * stamps of its versions to {@link #STAMPS}.
 */
public final class MarkReportAges extends ProcessFunction<ManifestSlice, ReportInput> {
  public static final OutputTag<VersionStamp> STAMPS = new OutputTag<>("version-stamps", ReportTopology.STAMP);

  private final SubtaskStorage storage;
  private final RetentionFacts facts;
  private transient MarkReferenceAges mark;

  public MarkReportAges(TableLocation table, TableStorageFactory storageFactory, RetentionFacts facts) {
    this.storage = new SubtaskStorage(table, storageFactory);
    this.facts = facts;
  }

  @Override
  public void open(OpenContext openContext) {
    storage.open();
    mark = new MarkReferenceAges(storage.get(), facts);
  }

  @Override
  public void processElement(ManifestSlice slice, Context ctx, Collector<ReportInput> out) {
    AgeMarks marks = mark.mark(slice);
    marks.ages().forEach(age -> out.collect(new ReportInput(age.key(), age, null)));
    marks.versions().forEach(stamp -> ctx.output(STAMPS, stamp));
  }

  @Override
  public void close() {
    storage.close();
  }
}
