package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.engine.SweepResume;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunPlan;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Objects;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Records the run's plan where the referenced-files gate passed (parallelism 1, keyed by the one
 * key), before its output releases the first delete: the place {@code CleanupRun.decide} records it
 * on the other engines. The plan, made on the client before the job, gets what the mark stage found
 * ({@link SweepResume#withMarks}) from the reduced mark summary on the broadcast input, which in
 * BATCH mode arrives first; a gate output seen without it fails the job rather than record a plan
 * that cannot say how far a later cut-off may move. Passes the gate's output on unchanged; a plan
 * that cannot be written is logged and the run goes on.
 */
public final class RecordPlan extends KeyedBroadcastProcessFunction<Integer, UnlistedReferences, MarkSummary, UnlistedReferences> {
  /** The reduced mark summary the plan waits for. */
  public static final MapStateDescriptor<String, MarkSummary> MARKS_STATE =
      new MapStateDescriptor<>("mark-summary-for-the-plan", Types.STRING, CleanupTypes.SUMMARY);
  private static final String KEY = "reduced";

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final DecisionRecord record;

  public RecordPlan(TableLocation table, TableStorageFactory storageFactory, DecisionRecord record) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    this.record = Objects.requireNonNull(record, "record");
  }

  @Override
  public void processBroadcastElement(MarkSummary marks, Context ctx, Collector<UnlistedReferences> out) throws Exception {
    ctx.getBroadcastState(MARKS_STATE).put(KEY, marks);
  }

  @Override
  public void processElement(UnlistedReferences checked, ReadOnlyContext ctx, Collector<UnlistedReferences> out)
      throws Exception {
    MarkSummary marks = ctx.getBroadcastState(MARKS_STATE).get(KEY);
    if (marks == null) {
      throw new IllegalStateException("Cannot clean up " + table + ": the referenced-files gate passed before the "
          + MARKS_STATE.getName() + " arrived");
    }
    try (TableStorage storage = storageFactory.open(table)) {
      record.decided().writePlan(storage, SweepResume.withMarks(record.plan(), marks));
    }
    out.collect(checked);
  }

  /**
   * Where a job records its decision: the decide subtasks' parts and, once the gate passed, the plan.
   *
   * @param decided the run's {@code .decided} directory for the dataset
   * @param plan the plan, its decide tasks the decide operator's parallelism
   */
  public record DecisionRecord(RecordedFiles decided, RunPlan plan) implements java.io.Serializable {
    public DecisionRecord {
      Objects.requireNonNull(decided, "decided");
      Objects.requireNonNull(plan, "plan");
    }
  }
}
