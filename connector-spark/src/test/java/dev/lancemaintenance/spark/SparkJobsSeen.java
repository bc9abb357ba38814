package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.sql.SparkSession;

/**
 * The descriptions of the jobs Spark started, read up to a barrier job of our own: where a run
 * went, to the driver (no job) or to jobs.
 */
public final class SparkJobsSeen extends SparkListener {
  private static final String BARRIER = "lance-maintenance test barrier";
  private final List<String> seen = new CopyOnWriteArrayList<>();

  private SparkJobsSeen() {}

  /** A listener added to {@code spark}'s context; remove it with {@link #stopListening}. */
  public static SparkJobsSeen listenTo(SparkSession spark) {
    SparkJobsSeen jobs = new SparkJobsSeen();
    spark.sparkContext().addSparkListener(jobs);
    return jobs;
  }

  public void stopListening(SparkSession spark) {
    spark.sparkContext().removeSparkListener(this);
  }

  @Override
  public void onJobStart(SparkListenerJobStart start) {
    String description = String.valueOf(start.properties().getProperty("spark.job.description"));
    // The barrier is ours, in no group; a cleanup's jobs are "<job group> <description>".
    seen.add(BARRIER.equals(description)
        ? description
        : start.properties().getProperty("spark.jobGroup.id") + " " + description);
  }

  /**
   * Jobs seen since the last call, without the barrier: listeners hear events in order, so once
   * the barrier job is heard, every job started before it has been heard too.
   */
  public List<String> seenUntilBarrier(SparkSession spark) throws InterruptedException {
    spark.sparkContext().setJobDescription(BARRIER);
    try {
      spark.range(1).count();
    } finally {
      spark.sparkContext().setJobDescription(null);
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (!seen.contains(BARRIER)) {
      assertThat(System.currentTimeMillis()).as("barrier job heard").isLessThan(deadline);
      Thread.sleep(20);
    }
    List<String> jobs = new ArrayList<>(seen);
    seen.clear();
    jobs.removeIf(BARRIER::equals);
    return jobs;
  }
}
