package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.fleet.FleetRun;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * The small tables of a fleet call ({@code cleanup_all}, {@code describe_storage_all}) in one Flink
 * batch job: the tables are rebalanced over the subtasks and each subtask runs its table with the
 * local engine; a table of more than {@code distributeAbove} versions comes back deferred, for its
 * own job, unless its kind runs it on the subtask all the same ({@link FleetRun#onWorker}: {@code
 * cleanup_all}'s daily run with few versions new since its key snapshot). The client collects one
 * outcome per table, never a file.
 */
public final class FleetJob {
  private FleetJob() {}

  /** The outcomes, in no particular order (subtasks finish when they finish). */
  public static List<TableOutcome> run(
      StreamExecutionEnvironment env, String root, FleetRun fleet, List<TableLocation> tables, long distributeAbove)
      throws Exception {
    if (tables.isEmpty()) {
      return List.of();
    }
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    String uid = "lance-" + fleet.operation().replace('_', '-') + "-tables";
    List<TableOutcome> outcomes = new ArrayList<>();
    try (CloseableIterator<TableOutcome> collected = env
        .fromData(tables, new JavaSerializedType<>(TableLocation.class)).name("tables").uid(uid + "-source")
        .rebalance()
        .map(table -> fleet.onWorker(table, distributeAbove), new JavaSerializedType<>(TableOutcome.class))
        .name("run small tables").uid(uid)
        .executeAndCollect("lance " + fleet.operation() + " " + root)) {
      collected.forEachRemaining(outcomes::add);
    }
    return outcomes;
  }
}
