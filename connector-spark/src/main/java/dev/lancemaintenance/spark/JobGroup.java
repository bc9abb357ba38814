package dev.lancemaintenance.spark;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.SparkContext;

/**
 * The Spark job group one cleanup runs under, so the Spark UI shows which table each job belongs to
 * and which stage it is in. Each stage replaces the description ("lance cleanup s3a://b/t [2/6 mark]:
 * decoding 12,000 manifests in 375 slices"); {@link #close()} restores whatever group the calling
 * thread had before, as a notebook cell may have set its own.
 */
final class JobGroup implements AutoCloseable {
  private static final String GROUP_ID = "spark.jobGroup.id";
  private static final String DESCRIPTION = "spark.job.description";
  private static final String INTERRUPT = "spark.job.interruptOnCancel";

  private final SparkContext context;
  private final String groupId;
  private final String prefix;
  private final Map<String, String> previous = new LinkedHashMap<>();

  /**
   * @param groupId e.g. {@code lance-cleanup-<table hash>-<start millis>}
   * @param prefix what every description starts with, e.g. {@code lance cleanup <table>}
   */
  JobGroup(SparkContext context, String groupId, String prefix) {
    this.context = context;
    this.groupId = groupId;
    this.prefix = prefix;
    for (String key : new String[] {GROUP_ID, DESCRIPTION, INTERRUPT}) {
      previous.put(key, context.getLocalProperty(key));
    }
    context.setJobGroup(groupId, prefix, false);
  }

  /** Names the stage the next jobs belong to: {@code "<prefix> [<step>]: <detail>"}. */
  void stage(String step, String detail) {
    context.setJobGroup(groupId, prefix + " [" + step + "]: " + detail, false);
  }

  String groupId() {
    return groupId;
  }

  @Override
  public void close() {
    // setLocalProperty(key, null) removes the key, which is how "no group" is represented.
    previous.forEach(context::setLocalProperty);
  }
}
