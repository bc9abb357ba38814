package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.engine.Gate;
import java.io.Serializable;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ReadOnlyBroadcastState;

/**
 * What an operator's files wait for on its broadcast input ({@link ReleaseGate}, {@link CapDeletes}):
 * the one reduced value, kept under one key of the broadcast state, and what the operator decides
 * from it, once per subtask. In BATCH mode the value arrives before any file; a file seen without it
 * fails the job rather than guess.
 *
 * @param <S> the reduced value
 * @param <V> what is decided from it (whether the files go on, how many may)
 */
final class AwaitedDecision<S, V> implements Serializable {
  private static final long serialVersionUID = 1L;
  /** The key the reduced value is kept under. */
  private static final String KEY = "reduced";

  private final String table;
  private final MapStateDescriptor<String, S> state;
  private final Gate<S, V> decide;
  private final String waitingAt;
  private transient V decision;

  /**
   * @param state the broadcast state the reduced value is kept in; its name says what the files wait for
   * @param decide what the operator decides from the reduced value
   * @param waitingAt what a file waits at, for the error when it comes first ({@code max_deletes})
   */
  AwaitedDecision(String table, MapStateDescriptor<String, S> state, Gate<S, V> decide, String waitingAt) {
    this.table = table;
    this.state = state;
    this.decide = decide;
    this.waitingAt = waitingAt;
  }

  MapStateDescriptor<String, S> state() {
    return state;
  }

  /** Keeps the reduced value that arrived and decides from it. */
  V arrived(BroadcastState<String, S> broadcast, S reduced) throws Exception {
    broadcast.put(KEY, reduced);
    decision = decide.check(reduced);
    return decision;
  }

  /** The decision for {@code file}: this subtask's, or from the kept value; the error names the table and the file. */
  V forFile(ReadOnlyBroadcastState<String, S> broadcast, CandidateFile file) throws Exception {
    if (decision == null) {
      S reduced = broadcast.get(KEY);
      if (reduced == null) {
        throw new IllegalStateException(
            "Cannot clean up " + table + ": " + file.path() + " reached " + waitingAt + " before the " + state.getName());
      }
      decision = decide.check(reduced);
    }
    return decision;
  }
}
