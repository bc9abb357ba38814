package dev.lancemaintenance.spark;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
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
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;

/**
 * The storage report as Spark jobs ({@link StorageReportRun}): the report's mark one slice per task,
 * its ages shuffled by reference key; the listing one directory per task into a co-group with the
 * ages, classified per partition. The driver holds the plan, a stamp per version and the reduced
 * counters, never a path.
 */
public final class SparkStorageReport {
  private final SparkSession spark;
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final Clock clock;
  private List<Duration> windows = ReportWindows.DEFAULT_WINDOWS;
  /** The view of file paths the report lists from ({@link #fileListView}), null to list the store. */
  private FileListView fileListView;

  SparkStorageReport(SparkSession spark, TableLocation table, TableStorageFactory storageFactory, Clock clock) {
    this.spark = Objects.requireNonNull(spark, "spark");
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The what-if windows (default 0 s, 1 h, 1 d, 7 d, 30 d). */
  public SparkStorageReport windows(List<Duration> windows) {
    this.windows = List.copyOf(windows);
    return this;
  }

  /**
   * List the table from a view of file paths instead of the store ({@code file_list_view}), with
   * the rules of a cleanup that lists from it ({@link FileListView}): the report then says what
   * that cleanup would remove.
   */
  public SparkStorageReport fileListView(String view) {
    this.fileListView = new FileListView(spark, view, table);
    return this;
  }

  /** The report on what {@code request} (a cleanup action's {@code request()}) would clean. */
  public StorageReport report(DatasetCleanup request) {
    String id = "lance-describe-" + Integer.toHexString(table.hashCode()) + "-" + clock.millis();
    try (TableStorage storage = storageFactory.open(table);
        JobGroup group = new JobGroup(spark.sparkContext(), id, "lance describe " + table);
        SparkRun run = new SparkRun(group)) {
      CleanupPlan plan = fileListView == null
          ? CleanupRun.plan(storage, new CleanupPlanner(), request)
          : fileListView.plan(storage, new CleanupPlanner(), request);
      return StorageReportRun.run(storage, plan, windows, run);
    } catch (Exception e) {
      throw MaintenanceException.in(e).map(RuntimeException.class::cast).orElseGet(() -> e instanceof RuntimeException runtime
          ? runtime
          : new MaintenanceException("Cannot describe " + table + ": the Spark job failed (" + e + ")", e));
    }
  }

  /** The report as a DataFrame of {@link StorageReport#rows()} ({@link ResultRows#STORAGE_SCHEMA}). */
  public Dataset<Row> toDataset(DatasetCleanup request) {
    return ResultRows.storageDataset(spark, report(request));
  }

  private final class SparkRun implements StorageReportRun.Distribution, AutoCloseable {
    private final JobGroup group;
    private final JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    private final Broadcast<TableStorageFactory> factory = jsc.broadcast(storageFactory);
    private JavaRDD<MarkAges.SliceAges> marked;

    SparkRun(JobGroup group) {
      this.group = group;
    }

    @Override
    public List<VersionStamp> mark(CleanupPlan plan) {
      group.stage(CleanupStage.MARK.label(), String.format("reading the ages of %,d slices", plan.slices().size()));
      marked = jsc.parallelize(plan.slices(), Math.max(1, plan.slices().size()))
          .mapPartitions(new MarkAges(factory, table, plan.facts()))
          .persist(StorageLevel.MEMORY_AND_DISK());
      // One stamp per version: as many as the plan's manifest locations, which the driver holds already.
      return marked.flatMap(MarkAges.SliceAges::versionsOf).collect();
    }

    @Override
    public StorageCounters classify(CleanupPlan plan, ReportContext context) {
      int partitions = Math.max(jsc.defaultParallelism(), plan.slices().size());
      group.stage(CleanupStage.LIST.through(CleanupStage.DECIDE),
          String.format("listing %d directories, classifying in %,d partitions", plan.listings().size(), partitions));
      JavaPairRDD<String, ReferenceAge> ages =
          marked.flatMapToPair(MarkAges.SliceAges::keyedAges).reduceByKey(ReferenceAge::merge, partitions);
      JavaRDD<FileEntry> files = fileListView != null
          ? fileListView.files(plan.facts().dataset())
          : jsc.parallelize(plan.listings(), plan.listings().size()).flatMap(new ListFiles(factory, table));
      return files.mapToPair(file -> ClassifyPartition.keyed(context, file))
          .cogroup(ages, partitions)
          .mapPartitions(new ClassifyPartition(context))
          .reduce(StorageCounters::merge);
    }

    @Override
    public void close() {
      if (marked != null) {
        marked.unpersist(false);
      }
    }
  }
}
