package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import org.apache.flink.api.java.functions.KeySelector;

/** Key selectors of the cleanup topology, as named classes so Flink sees their key types. */
public final class Keys {
  private Keys() {}

  /** Marks and files by reference key: the co-group of the decide stage. */
  public static final class ByReferenceKey implements KeySelector<DecideInput, String> {
    @Override
    public String getKey(DecideInput input) {
      return input.key();
    }
  }

  /** Ages and files by reference key: the co-group of the report's classify stage. */
  public static final class ByReportKey implements KeySelector<ReportInput, String> {
    @Override
    public String getKey(ReportInput input) {
      return input.key();
    }
  }

  /** Expired manifests by path: spreads the manifest sweep over subtasks. */
  public static final class ByPath implements KeySelector<CandidateFile, String> {
    @Override
    public String getKey(CandidateFile file) {
      return file.path();
    }
  }

  /** One key for everything: reductions at parallelism 1 (summaries, counters). */
  public static final class Single<T> implements KeySelector<T, Integer> {
    @Override
    public Integer getKey(T value) {
      return 0;
    }
  }
}
