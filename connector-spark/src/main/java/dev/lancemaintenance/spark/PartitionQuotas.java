package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.DeleteBudget;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.Function2;

/**
 * {@code max_deletes} on Spark: the files of a sweep cut to a budget without a counter shared by
 * the tasks. One job counts each partition's files (one number per partition reaches the driver),
 * {@link DeleteBudget#quotas} gives each partition its share, and each sweep task passes on only the
 * first files of its partition up to its share. A recomputed partition holds the same number of
 * files (the same keys hash to it), so the shares still add up to at most the budget.
 */
final class PartitionQuotas {
  private final JavaRDD<CandidateFile> within;
  private final long deferred;

  private PartitionQuotas(JavaRDD<CandidateFile> within, long deferred) {
    this.within = within;
    this.deferred = deferred;
  }

  /** Counts {@code files} per partition (one job) and cuts them to {@code budget}. */
  static PartitionQuotas of(JavaRDD<CandidateFile> files, long budget) {
    List<Long> counts = files.mapPartitions(new CountFiles()).collect();
    long[] perPartition = counts.stream().mapToLong(Long::longValue).toArray();
    long[] quotas = DeleteBudget.quotas(perPartition, budget);
    long deferred = 0;
    for (int partition = 0; partition < quotas.length; partition++) {
      deferred += perPartition[partition] - quotas[partition];
    }
    return new PartitionQuotas(files.mapPartitionsWithIndex(new TakeQuota(quotas), true), deferred);
  }

  /** The files within the budget, lazily. */
  JavaRDD<CandidateFile> within() {
    return within;
  }

  /** How many files the budget left out, for the run's {@code deferred_deletes}. */
  long deferred() {
    return deferred;
  }

  /** The number of files in one partition, as its only record. */
  static final class CountFiles implements FlatMapFunction<Iterator<CandidateFile>, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Iterator<Long> call(Iterator<CandidateFile> files) {
      long count = 0;
      for (; files.hasNext(); files.next()) {
        count++;
      }
      return List.of(count).iterator();
    }
  }

  /** The first {@code quotas[partition]} files of a partition; the rest are never read. */
  static final class TakeQuota implements Function2<Integer, Iterator<CandidateFile>, Iterator<CandidateFile>> {
    private static final long serialVersionUID = 1L;

    private final long[] quotas;

    TakeQuota(long[] quotas) {
      this.quotas = quotas.clone();
    }

    @Override
    public Iterator<CandidateFile> call(Integer partition, Iterator<CandidateFile> files) {
      long quota = quotas[partition];
      return new Iterator<>() {
        private long taken;

        @Override
        public boolean hasNext() {
          return taken < quota && files.hasNext();
        }

        @Override
        public CandidateFile next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          taken++;
          return files.next();
        }
      };
    }
  }
}
