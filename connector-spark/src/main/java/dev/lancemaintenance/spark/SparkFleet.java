package dev.lancemaintenance.spark;

import dev.lancemaintenance.fleet.FleetRun;
import dev.lancemaintenance.fleet.TableOutcome;
import dev.lancemaintenance.fleet.TableStatus;
import dev.lancemaintenance.fleet.TableTask;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * A fleet call on Spark ({@code cleanup_all}, {@code describe_storage_all}): the small tables in
 * one job, one task per table, each run by the local engine on its executor; a table of more than
 * {@code distributeAbove} versions comes back {@link TableStatus#DEFERRED} and runs afterwards on
 * its own distributed stages ({@code distributed}), from the driver, unless its kind runs it on the
 * task all the same ({@link FleetRun#onWorker}: {@code cleanup_all}'s daily run with few versions
 * new since its key snapshot). The driver holds the tables'
 * locations and one outcome per table, never their files.
 */
final class SparkFleet {
  private SparkFleet() {}

  static List<TableOutcome> run(
      SparkSession spark, String root, FleetRun fleet, List<TableLocation> tables, int distributeAbove, TableTask distributed) {
    if (tables.isEmpty()) {
      return List.of();
    }
    List<TableOutcome> outcomes;
    try (JobGroup group = new JobGroup(spark.sparkContext(),
        "lance-" + fleet.operation().replace('_', '-') + "-" + Integer.toHexString(root.hashCode()) + "-" + System.currentTimeMillis(),
        "lance " + fleet.operation() + " " + root)) {
      group.stage("tables", tables.size() + " tables, one task each");
      outcomes = JavaSparkContext.fromSparkContext(spark.sparkContext())
          .parallelize(tables, tables.size())
          .map(table -> fleet.onWorker(table, distributeAbove))
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
}
