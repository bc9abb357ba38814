package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate before stage 5b (keyed by manifest path): lets the manifests of removed versions through
 * to their sweep only when the reduced counters of every other delete show no failure. A failed
 * delete keeps the manifests, so the next run sees the files they referenced as verified again.
 *
 * <p>In BATCH mode the broadcast counters arrive before any manifest; a manifest seen without them
 * fails the job rather than guess.
 */
public final class ReleaseExpiredManifests
    extends KeyedBroadcastProcessFunction<String, CandidateFile, CleanupCounters, CandidateFile> {
  public static final MapStateDescriptor<String, CleanupCounters> FILE_COUNTERS_STATE =
      new MapStateDescriptor<>("file-sweep-counters", Types.STRING, CleanupTypes.COUNTERS);

  private static final Logger LOG = LoggerFactory.getLogger(ReleaseExpiredManifests.class);
  private static final String COUNTERS_KEY = "counters";

  private final String table;

  public ReleaseExpiredManifests(String table) {
    this.table = table;
  }

  @Override
  public void processBroadcastElement(CleanupCounters counters, Context ctx, Collector<CandidateFile> out)
      throws Exception {
    ctx.getBroadcastState(FILE_COUNTERS_STATE).put(COUNTERS_KEY, counters);
    if (counters.failedDeletes() > 0 && getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0) {
      LOG.warn(
          "lance cleanup {}: {} deletes failed; keeping the expired manifests so the next run retries",
          table, counters.failedDeletes());
    }
  }

  @Override
  public void processElement(CandidateFile manifest, ReadOnlyContext ctx, Collector<CandidateFile> out)
      throws Exception {
    CleanupCounters counters = ctx.getBroadcastState(FILE_COUNTERS_STATE).get(COUNTERS_KEY);
    if (counters == null) {
      throw new IllegalStateException(
          "Cannot clean up " + table + ": expired manifest " + manifest.path() + " reached its gate before the file counters");
    }
    if (counters.failedDeletes() == 0) {
      out.collect(manifest);
    }
  }
}
