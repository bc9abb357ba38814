package dev.lancemaintenance.local;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.ListManagedFiles;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.report.AgeMarks;
import dev.lancemaintenance.report.ClassifyFiles;
import dev.lancemaintenance.report.MarkReferenceAges;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.report.ReportContext;
import dev.lancemaintenance.report.ReportWindows;
import dev.lancemaintenance.report.StorageCounters;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.report.StorageReportRun;
import dev.lancemaintenance.report.VersionStamp;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.IntStream;

/**
 * The storage report on the local engine: {@link StorageReportRun} on a thread pool, with the ages
 * and the listed files spilled to local disk by reference key as a cleanup spills its marks, so the
 * classify tasks hold one partition's ages at a time and only counters meet in memory.
 */
public final class LocalStorageReport {
  private static final int PARTITIONS = 16;

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private List<Duration> windows = ReportWindows.DEFAULT_WINDOWS;
  private Optional<Integer> parallelism = Optional.empty();
  private Path spillDirectory = Paths.get(System.getProperty(
      LocalCleanupAction.SPILL_DIR_PROPERTY, System.getProperty("java.io.tmpdir")));

  public LocalStorageReport(TableLocation table, TableStorageFactory storageFactory) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
  }

  /** The what-if windows (default {@link ReportWindows#DEFAULT_WINDOWS}). */
  public LocalStorageReport windows(List<Duration> windows) {
    this.windows = List.copyOf(windows);
    return this;
  }

  /** Threads for reading manifests and listing (default: the store's suggested concurrency). */
  public LocalStorageReport parallelism(int threads) {
    if (threads < 1) {
      throw new IllegalArgumentException("parallelism must be > 0: " + threads);
    }
    this.parallelism = Optional.of(threads);
    return this;
  }

  /** Where the spill goes (default as {@link LocalCleanupAction#spillDirectory}). */
  public LocalStorageReport spillDirectory(Path directory) {
    this.spillDirectory = Objects.requireNonNull(directory, "directory");
    return this;
  }

  /** Reports on what {@code request} (a cleanup action's {@code request()}) would clean. */
  public StorageReport report(DatasetCleanup request) {
    try (TableStorage storage = storageFactory.open(table);
        Spills spills = new Spills(spillDirectory, PARTITIONS)) {
      int threads = parallelism.orElseGet(storage::suggestedConcurrency);
      ExecutorService pool = Executors.newFixedThreadPool(threads, DaemonThreads.named("lance-describe"));
      try {
        CleanupPlanner planner = new CleanupPlanner(CleanupPlanner.DEFAULT_SLICE_SIZE, threads);
        return StorageReportRun.run(storage, planner, request, windows, new Run(storage, spills, pool));
      } finally {
        pool.shutdownNow();
      }
    }
  }

  private record Run(TableStorage storage, Spills spills, ExecutorService pool) implements StorageReportRun.Distribution {
    @Override
    public List<VersionStamp> mark(CleanupPlan plan) {
      MarkReferenceAges mark = new MarkReferenceAges(storage, plan.facts());
      return runAll(plan.slices(), slice -> markSlice(mark, slice)).stream().flatMap(List::stream).toList();
    }

    private List<VersionStamp> markSlice(MarkReferenceAges mark, ManifestSlice slice) {
      AgeMarks marks = mark.mark(slice);
      marks.ages().forEach(spills::addAge);
      return marks.versions();
    }

    @Override
    public StorageCounters classify(CleanupPlan plan, ReportContext context) {
      runAll(plan.listings(), task -> list(task, context.dataset()));
      ClassifyFiles classify = new ClassifyFiles(context);
      List<StorageCounters> partitions =
          runAll(IntStream.range(0, spills.partitions()).boxed().toList(), p -> classify(p, classify, context));
      StorageCounters total = context.newCounters();
      partitions.forEach(total::merge);
      return total;
    }

    private Long list(ListingTask task, DatasetRef dataset) {
      long count = 0;
      for (Iterator<FileEntry> files = ListManagedFiles.files(storage, task); files.hasNext(); count++) {
        spills.addFile(files.next(), dataset);
      }
      return count;
    }

    private StorageCounters classify(int partition, ClassifyFiles classify, ReportContext context) {
      Map<String, ReferenceAge> ages = new HashMap<>();
      spills.ages(partition).forEach(age -> ages.merge(age.key(), age, ReferenceAge::merge));
      StorageCounters counters = context.newCounters();
      spills.files(partition).forEach(
          file -> classify.add(file, Optional.ofNullable(ages.get(classify.keyOf(file.path()))), counters));
      return counters;
    }

    private <T, R> List<R> runAll(List<T> inputs, Function<T, R> task) {
      List<Future<R>> futures = new ArrayList<>();
      for (T input : inputs) {
        futures.add(pool.submit(() -> task.apply(input)));
      }
      List<R> results = new ArrayList<>();
      for (Future<R> future : futures) {
        try {
          results.add(future.get());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while describing the storage", e);
        } catch (ExecutionException e) {
          if (e.getCause() instanceof RuntimeException runtime) {
            throw runtime;
          }
          throw new IllegalStateException(e.getCause());
        }
      }
      return results;
    }
  }
}
