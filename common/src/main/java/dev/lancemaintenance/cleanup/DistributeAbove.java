package dev.lancemaintenance.cleanup;

/**
 * {@code distribute_above}: how many versions' manifests a run may read for an engine that
 * distributes (Spark, Flink) to clean the table in its own process (Spark's driver, Flink's client)
 * on the local engine; a run that reads more runs the stages as the engine's jobs. A run reads every
 * version of its table, except a daily incremental run that decides from the previous run's key
 * snapshot, which reads only the versions new since (docs/ledger.md, section 12): so a small table
 * is always cleaned in process, and a large one's daily run too when few versions are new. Below
 * some thousands of versions, scheduling jobs and shuffles costs more than the work
 * (docs/benchmarks.md: a 2,000-version table, 1.9 s as Spark jobs and 0.8 s in the driver). The
 * same files go either way. The local engine always runs in process.
 *
 * <p>The one home of the threshold's name, default and checks: {@link CleanupOption#DISTRIBUTE_ABOVE}
 * (every entry point), Spark's session setting, Flink's configuration setting ({@link
 * #FLINK_SETTING}) and the fleet calls' workers take them from here. A call's {@code
 * distribute_above} overrides an engine's setting.
 */
public final class DistributeAbove {
  /** The option's name in every entry point ({@code distribute_above => N}, {@code --distribute-above N}). */
  public static final String NAME = "distribute_above";
  /** Versions' manifests up to which a run is cleaned in process unless the caller says otherwise. */
  public static final int DEFAULT = 5_000;
  /**
   * Flink's setting for the default of every cleanup on an environment whose configuration holds it,
   * named as Flink names its options: a table environment's config, which the environment of its
   * {@code CALL}s carries ({@code TableConfig.set}, the SQL client's {@code SET}), or the job's
   * ({@code flink run -Dlance.cleanup.distribute-above=5000}). Spark's is {@code spark.lance.cleanup.distributeAbove}.
   */
  public static final String FLINK_SETTING = "lance.cleanup.distribute-above";

  private DistributeAbove() {}

  /** {@code versions} as a threshold: 0 distributes every table; a negative count is an error naming the option. */
  public static int checked(long versions) {
    if (versions < 0 || versions > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(NAME + " takes a number of versions from 0 (distribute every table) to "
          + Integer.MAX_VALUE + ", not " + versions);
    }
    return (int) versions;
  }

  /**
   * A threshold written as text by {@code source} (an engine's setting, such as Spark's {@code
   * spark.lance.cleanup.distributeAbove}): a one-line error naming it when it is not a whole number
   * of versions or is negative.
   */
  public static int parse(String text, String source) {
    long versions;
    try {
      versions = Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(source + " takes a whole number of versions (0 distributes every table), not '"
          + text + "'");
    }
    try {
      return checked(versions);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage());
    }
  }

  /** Whether a run that reads {@code versions} versions' manifests is cleaned in process under {@code threshold}. */
  public static boolean inProcess(int threshold, long versions) {
    return threshold > 0 && versions <= threshold;
  }
}
