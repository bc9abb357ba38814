package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunPlan;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Objects;
import org.apache.flink.api.common.functions.RichMapFunction;

/**
 * Records the run's plan where the referenced-files gate passed (parallelism 1), before its output
 * releases the first delete: the place {@code CleanupRun.decide} records it on the other engines.
 * Passes the gate's output on unchanged; a plan that cannot be written is logged and the run goes on.
 */
public final class RecordPlan extends RichMapFunction<UnlistedReferences, UnlistedReferences> {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final DecisionRecord record;

  public RecordPlan(TableLocation table, TableStorageFactory storageFactory, DecisionRecord record) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    this.record = Objects.requireNonNull(record, "record");
  }

  @Override
  public UnlistedReferences map(UnlistedReferences checked) {
    try (TableStorage storage = storageFactory.open(table)) {
      record.decided().writePlan(storage, record.plan());
    }
    return checked;
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
