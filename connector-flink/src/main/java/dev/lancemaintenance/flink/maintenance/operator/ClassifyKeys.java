package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.report.ClassifyFiles;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.report.ReportContext;
import dev.lancemaintenance.report.StorageCounters;
import dev.lancemaintenance.storage.FileEntry;
import java.util.List;
import java.util.Optional;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.Collector;

/**
 * The report's classify (keyed by reference key): gathers the ages and listed files of one key and,
 * at the end of the key, adds each file to the subtask's {@link StorageCounters} with {@link
 * ClassifyFiles}, as {@link DecideFiles} decides them for a cleanup (BATCH execution: keys one at a
 * time, an event-time timer when a key's records are exhausted). Only the subtask's counters leave,
 * once, when its input has ended ({@link Operator}): never a path.
 */
public final class ClassifyKeys extends KeyedProcessFunction<String, ReportInput, StorageCounters> {
  private final ReportContext context;
  private transient ValueState<ReferenceAge> age;
  private transient ListState<FileEntry> files;
  private transient ClassifyFiles classify;
  private transient StorageCounters counters;

  public ClassifyKeys(ReportContext context) {
    this.context = context;
  }

  @Override
  public void open(OpenContext openContext) {
    age = getRuntimeContext().getState(new ValueStateDescriptor<>("age", ReportTopology.AGE));
    files = getRuntimeContext().getListState(new ListStateDescriptor<>("files", CleanupTypes.FILE));
    classify = new ClassifyFiles(context);
    counters = context.newCounters();
  }

  @Override
  public void processElement(ReportInput input, Context ctx, Collector<StorageCounters> out) throws Exception {
    if (input.age() != null) {
      ReferenceAge seen = age.value();
      age.update(seen == null ? input.age() : seen.merge(input.age()));
    } else {
      files.add(input.file());
    }
    ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext ctx, Collector<StorageCounters> out) throws Exception {
    Optional<ReferenceAge> keyAge = Optional.ofNullable(age.value());
    Iterable<FileEntry> keyFiles = files.get();
    for (FileEntry file : keyFiles == null ? List.<FileEntry>of() : keyFiles) {
      classify.add(file, keyAge, counters);
    }
    age.clear();
    files.clear();
  }

  /** Runs {@link ClassifyKeys} and emits its counters once, zero included, when the input has ended. */
  public static final class Operator extends KeyedProcessOperator<String, ReportInput, StorageCounters> {
    private final ClassifyKeys classify;

    public Operator(ReportContext context) {
      this(new ClassifyKeys(context));
    }

    private Operator(ClassifyKeys classify) {
      super(classify);
      this.classify = classify;
    }

    @Override
    public void finish() throws Exception {
      // finish() follows the end of input and the last key's timer (the final watermark).
      output.collect(new StreamRecord<>(classify.counters));
      super.finish();
    }
  }
}
