package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;

/**
 * The one reduced value an operator's files wait for on its broadcast input ({@link ReleaseGate},
 * {@link CapDeletes}), kept under one key of the broadcast state. In BATCH mode it arrives before
 * any file; a file seen without it fails the job rather than guess.
 */
final class AwaitedValue {
  /** The key the reduced value is kept under. */
  static final String KEY = "reduced";

  private AwaitedValue() {}

  /** The reduced value, or the error naming the table, the file and what it waited at. */
  static <S> S require(
      ReadOnlyBroadcastState<String, S> broadcast, MapStateDescriptor<String, S> state, String table,
      CandidateFile file, String waitingAt) throws Exception {
    S reduced = broadcast.get(KEY);
    if (reduced == null) {
      throw new IllegalStateException(
          "Cannot clean up " + table + ": " + file.path() + " reached " + waitingAt + " before the " + state.getName());
    }
    return reduced;
  }
}
