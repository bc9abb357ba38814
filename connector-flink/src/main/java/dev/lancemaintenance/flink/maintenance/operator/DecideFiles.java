package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.storage.FileEntry;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Stage {@code decide} (keyed by reference key): gathers the marks and listed files of one key, and at
 * the end of the key decides each file with {@link DecideByPath}.
 *
 * <p>Relies on BATCH execution: the broadcast {@link DecisionContext} is consumed before any keyed
 * record, keys arrive one at a time sorted, and event-time timers fire when a key's records are
 * exhausted. State is the current key's only, so a subtask holds one key's files at once (an index
 * directory's files at most), never the table's.
 *
 * <p>A key that a retained version needs and no listed file carries goes to the {@link #UNLISTED}
 * side output; the topology reduces it and holds every decided file back until the reduction shows
 * none.
 */
public final class DecideFiles extends KeyedBroadcastProcessFunction<String, DecideInput, DecisionContext, CandidateFile> {
  /** The broadcast decision context, under {@link #CONTEXT_KEY}. */
  public static final MapStateDescriptor<String, DecisionContext> CONTEXT_STATE =
      new MapStateDescriptor<>("decision-context", Types.STRING, CleanupTypes.CONTEXT);

  /** Keys retained versions need that the listing did not show, one record per key. */
  public static final OutputTag<UnlistedReferences> UNLISTED = new OutputTag<>("unlisted-references", CleanupTypes.UNLISTED);

  /**
   * The files a resume must decide again as listed (decided, or kept only for their age: {@link
   * DecideByPath#decideAndRecord}), for the run's record of its decision ({@link RecordDecided}); only when asked.
   */
  public static final OutputTag<FileEntry> DECIDED = new OutputTag<>("decided-files", CleanupTypes.FILE);

  private static final String CONTEXT_KEY = "context";

  private final boolean recordsDecided;

  private transient ValueState<MarkState> mark;
  private transient ListState<FileEntry> files;

  /** @param recordsDecided whether each file a resume must decide again also goes, as listed, to {@link #DECIDED} */
  public DecideFiles(boolean recordsDecided) {
    this.recordsDecided = recordsDecided;
  }

  @Override
  public void open(OpenContext openContext) {
    mark = getRuntimeContext().getState(new ValueStateDescriptor<>("mark", TypeInformation.of(MarkState.class)));
    files = getRuntimeContext().getListState(new ListStateDescriptor<>("files", CleanupTypes.FILE));
    MaintenanceMetrics.ofStage(getRuntimeContext().getMetricGroup(), CleanupStage.DECIDE);
  }

  @Override
  public void processBroadcastElement(DecisionContext context, Context ctx, Collector<CandidateFile> out)
      throws Exception {
    ctx.getBroadcastState(CONTEXT_STATE).put(CONTEXT_KEY, context);
  }

  @Override
  public void processElement(DecideInput input, ReadOnlyContext ctx, Collector<CandidateFile> out) throws Exception {
    if (input.mark() != null) {
      MarkState seen = mark.value();
      mark.update(seen == null ? input.mark().state() : seen.merge(input.mark().state()));
    } else {
      files.add(input.file());
    }
    ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<CandidateFile> out) throws Exception {
    DecisionContext context = ctx.getBroadcastState(CONTEXT_STATE).get(CONTEXT_KEY);
    if (context == null) {
      // Cannot happen in BATCH mode (broadcast input first); deciding without it could delete live files.
      throw new IllegalStateException("No decision context before key " + ctx.getCurrentKey() + "; refusing to decide");
    }
    DecideByPath decide = new DecideByPath(context);
    Optional<MarkState> state = Optional.ofNullable(mark.value());
    boolean listed = false;
    Iterable<FileEntry> keyFiles = files.get();
    Consumer<FileEntry> recorded = recordsDecided ? file -> ctx.output(DECIDED, file) : file -> {};
    for (FileEntry file : keyFiles == null ? List.<FileEntry>of() : keyFiles) {
      listed = true;
      decide.decideAndRecord(file, state, recorded).ifPresent(out::collect);
    }
    if (!listed && state.isPresent()) {
      UnlistedReferences unlisted = decide.unlisted(ctx.getCurrentKey(), state.get());
      if (unlisted.count() > 0) {
        ctx.output(UNLISTED, unlisted);
      }
    }
    mark.clear();
    files.clear();
  }
}
