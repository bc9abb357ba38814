package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.ledger.RunSummary;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;

/**
 * What the ledger needs decoded ({@link MarkTasks.Decoder}), as small BATCH jobs the client runs
 * before it builds the cleanup job: the runs of new manifests (and, to verify, the full mark) are
 * decoded in parallel subtasks and their small results collected to the client, which derives the
 * marks. Wiring only.
 */
public final class LedgerJobs implements MarkTasks.Decoder {
  private final StreamExecutionEnvironment env;
  private final CleanupJobSpec spec;
  private final CleanupPlan plan;

  public LedgerJobs(StreamExecutionEnvironment env, CleanupJobSpec spec, CleanupPlan plan) {
    this.env = env;
    this.spec = spec;
    this.plan = plan;
  }

  @Override
  public List<RunSummary> summarise(List<ManifestRun> runs) {
    return collect("summarise-new-manifests", runs, CleanupTypes.MANIFEST_RUN,
        new SummariseRuns(spec.table(), spec.storageFactory(), plan.facts().dataset()), CleanupTypes.RUN_SUMMARY);
  }

  @Override
  public List<MarkResult> markInFull(List<MarkTask> tasks) {
    return collect("verify-full-mark", tasks, CleanupTypes.MARK_TASK,
            new MarkInFull(spec.table(), spec.storageFactory(), plan.facts()), CleanupTypes.MARKED)
        .stream().map(MarkTask.Derived::result).toList();
  }

  private <I, O> List<O> collect(
      String stage, List<I> inputs, TypeInformation<I> inputType, MapFunction<I, O> function, TypeInformation<O> outputType) {
    DataStream<O> outputs = env.fromData(inputs, inputType).setParallelism(1)
        .name(spec.name(stage + "-inputs")).uid(spec.uid(stage + "-inputs"))
        .rebalance()
        .map(function, outputType)
        .setParallelism(Math.min(env.getParallelism(), inputs.size()))
        .name(spec.name(stage)).uid(spec.uid(stage));
    List<O> collected = new ArrayList<>();
    try (CloseableIterator<O> each = outputs.executeAndCollect(spec.name(stage))) {
      each.forEachRemaining(collected::add);
    } catch (Exception e) {
      throw new LedgerJobException(stage, e);
    }
    return collected;
  }

  /** A ledger job failed; the action unwraps it into the error the stage threw. */
  public static final class LedgerJobException extends RuntimeException {
    LedgerJobException(String stage, Exception cause) {
      super("the job " + stage + " failed", cause);
    }
  }
}
