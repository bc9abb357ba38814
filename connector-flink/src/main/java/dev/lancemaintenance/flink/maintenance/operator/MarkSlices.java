package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Stage {@code mark} (parallel): runs one {@link MarkTask} per record (decodes a slice of manifests,
 * or hands on marks the client derived from the ledger).
 * Marks go to the main output, keyed downstream; the manifests of removed versions and the slice's
 * {@link MarkSummary} go to side outputs. A manifest that cannot be read fails the job before any
 * delete.
 */
public final class MarkSlices extends ProcessFunction<MarkTask, ReferenceMark> {
  public static final OutputTag<CandidateFile> EXPIRED_MANIFESTS =
      new OutputTag<>("expired-manifests", CleanupTypes.CANDIDATE);
  public static final OutputTag<MarkSummary> SUMMARIES = new OutputTag<>("mark-summaries", CleanupTypes.SUMMARY);

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final RetentionFacts facts;
  private transient TableStorage storage;
  private final long manifestsToRead;
  private transient Counter manifestsRead;

  /** @param manifestsToRead the plan's manifests, published by the first subtask only, so that a sum over subtasks is the total */
  public MarkSlices(TableLocation table, TableStorageFactory storageFactory, RetentionFacts facts, long manifestsToRead) {
    this.table = table;
    this.storageFactory = storageFactory;
    this.facts = facts;
    this.manifestsToRead = manifestsToRead;
  }

  @Override
  public void open(OpenContext openContext) {
    storage = storageFactory.open(table);
    MetricGroup metrics = MaintenanceMetrics.ofStage(getRuntimeContext().getMetricGroup(), CleanupStage.MARK);
    manifestsRead = metrics.counter(MaintenanceMetrics.MANIFESTS_READ);
    long total = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0 ? manifestsToRead : 0;
    metrics.gauge(MaintenanceMetrics.MANIFESTS_TO_READ, (Gauge<Long>) () -> total);
  }

  @Override
  public void processElement(MarkTask task, Context ctx, Collector<ReferenceMark> out) {
    MarkResult result = task.mark(storage, facts);
    result.marks().forEach(out::collect);
    result.expiredManifests().forEach(manifest -> ctx.output(EXPIRED_MANIFESTS, manifest));
    ctx.output(SUMMARIES, result.summary());
    manifestsRead.inc(result.summary().manifestsRead());
  }

  @Override
  public void close() {
    if (storage != null) {
      storage.close();
    }
  }
}
