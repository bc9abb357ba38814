package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The gate before stage 5 (keyed by path): lets decided files through to their sweep (or, in a dry
 * run, their count) only once the checked {@link UnlistedReferences} of the whole decision have
 * arrived, that is once every key was decided and no retained version names a missing file.
 *
 * <p>In BATCH mode the broadcast arrives before any file; a file seen without it fails the job
 * rather than guess.
 */
public final class ReleaseDecidedFiles
    extends KeyedBroadcastProcessFunction<String, CandidateFile, UnlistedReferences, CandidateFile> {
  public static final MapStateDescriptor<String, UnlistedReferences> CHECKED_STATE =
      new MapStateDescriptor<>("checked-unlisted-references", Types.STRING, CleanupTypes.UNLISTED);

  private static final String CHECKED_KEY = "checked";

  private final String table;

  public ReleaseDecidedFiles(String table) {
    this.table = table;
  }

  @Override
  public void processBroadcastElement(UnlistedReferences checked, Context ctx, Collector<CandidateFile> out)
      throws Exception {
    ctx.getBroadcastState(CHECKED_STATE).put(CHECKED_KEY, checked);
  }

  @Override
  public void processElement(CandidateFile file, ReadOnlyContext ctx, Collector<CandidateFile> out) throws Exception {
    UnlistedReferences checked = ctx.getBroadcastState(CHECKED_STATE).get(CHECKED_KEY);
    if (checked == null || checked.count() > 0) {
      throw new IllegalStateException(
          "Cannot clean up " + table + ": decided file " + file.path() + " reached its gate before the check of referenced files");
    }
    out.collect(file);
  }
}
