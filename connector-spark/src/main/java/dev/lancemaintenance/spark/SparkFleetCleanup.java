package dev.lancemaintenance.spark;

import dev.lancemaintenance.fleet.FleetCleanup;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.sql.SparkSession;

/**
 * {@code cleanup_all} on Spark: the small tables in one job, one task per table, each cleaned by
 * the local engine on its executor; a table of more than {@code distributeAbove} versions comes
 * back {@link TableStatus#DEFERRED} and runs afterwards on its own distributed stages ({@link
 * SparkCleanupAction}), from the driver. The driver holds the tables' locations and one outcome
 * per table, never their files.
 */
final class SparkFleetCleanup {
  private SparkFleetCleanup() {}

  static List<TableOutcome> run(
      SparkSession spark,
      String root,
      FleetCleanup fleet,
      List<TableLocation> tables,
      int distributeAbove,
      java.util.function.Function<TableLocation, SparkCleanupAction> distributed) {
    if (tables.isEmpty()) {
      return List.of();
    }
    List<TableOutcome> outcomes;
    try (JobGroup group = new JobGroup(spark.sparkContext(),
        "lance-cleanup-all-" + Integer.toHexString(root.hashCode()) + "-" + System.currentTimeMillis(),
        "lance cleanup_all " + root)) {
      group.stage("tables", tables.size() + " tables, one task each");
      outcomes = JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(tables, tables.size())
          .map(new CleanSmallTable(fleet, distributeAbove))
          .collect();
    }
    List<TableOutcome> finished = new ArrayList<>(outcomes.size());
    for (int i = 0; i < outcomes.size(); i++) {
      finished.add(outcomes.get(i).status() == TableStatus.DEFERRED
          ? fleet.through(tables.get(i), distributed)
          : outcomes.get(i));
    }
    return finished;
  }

  /** A task's table: the local engine, or deferred when it is large. */
  static final class CleanSmallTable implements Function<TableLocation, TableOutcome> {
    private static final long serialVersionUID = 1L;
    private final FleetCleanup fleet;
    private final int distributeAbove;

    CleanSmallTable(FleetCleanup fleet, int distributeAbove) {
      this.fleet = fleet;
      this.distributeAbove = distributeAbove;
    }

    @Override
    public TableOutcome call(TableLocation table) {
      return fleet.onWorker(table, distributeAbove);
    }
  }
}
