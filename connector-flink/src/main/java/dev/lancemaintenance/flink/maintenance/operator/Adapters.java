package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.util.Collector;

/** Type adapters between stages: no logic beyond choosing a record's shape. */
public final class Adapters {
  private Adapters() {}

  public static final class MarkInput implements MapFunction<ReferenceMark, DecideInput> {
    @Override
    public DecideInput map(ReferenceMark mark) {
      return DecideInput.of(mark);
    }
  }

  /** A listed file under its reference key in the dataset being cleaned. */
  public static final class FileInput implements MapFunction<FileEntry, DecideInput> {
    private final DatasetRef dataset;

    public FileInput(DatasetRef dataset) {
      this.dataset = dataset;
    }

    @Override
    public DecideInput map(FileEntry file) {
      return DecideInput.of(file, dataset);
    }
  }

  /** The per-subtask counters of a candidate stage. */
  public static final class CountersOnly implements FlatMapFunction<RunOutput, CleanupCounters> {
    @Override
    public void flatMap(RunOutput output, Collector<CleanupCounters> out) {
      if (output.isCounters()) {
        out.collect(output.counters());
      }
    }
  }

  /** What the client needs of the reduced mark summary: manifests read, expiry records used. */
  public static final class MarkOutcome implements MapFunction<MarkSummary, RunOutput> {
    @Override
    public RunOutput map(MarkSummary summary) {
      return RunOutput.ofMark(summary);
    }
  }

  /** The reported files of a candidate stage. */
  public static final class FilesOnly implements FilterFunction<RunOutput> {
    @Override
    public boolean filter(RunOutput output) {
      return output.isFile();
    }
  }
}
