package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.report.ClassifyFiles;
import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.report.ReportContext;
import dev.lancemaintenance.report.StorageCounters;
import dev.lancemaintenance.report.VersionStamp;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Wires the storage report's distributed stages ({@link dev.lancemaintenance.report.StorageReportRun})
 * into BATCH jobs, wiring only:
 *
 * <pre>
 * stamps:   slices ─► mark ages ─► stamps ─► client
 * counters: slices ─► mark ages ─► ages ──┐
 *           listings ─► list ─► files ────┴─► keyBy(reference key) ─► classify ─► counters per subtask ─► client
 * </pre>
 *
 * <p>Two jobs because the windows are placed on the client from every version's stamp before any
 * file is classified, and a Flink job cannot hand its ages to the next one: the second job reads the
 * manifests again (the report reads each manifest twice; a cleanup reads it once).
 */
public final class ReportTopology {
  static final TypeInformation<VersionStamp> STAMP = new JavaSerializedType<>(VersionStamp.class);
  static final TypeInformation<ReferenceAge> AGE = new JavaSerializedType<>(ReferenceAge.class);
  static final TypeInformation<ReportInput> INPUT = new JavaSerializedType<>(ReportInput.class);
  static final TypeInformation<StorageCounters> COUNTERS = new JavaSerializedType<>(StorageCounters.class);
  private static final TypeInformation<ManifestSlice> SLICE = new JavaSerializedType<>(ManifestSlice.class);

  private ReportTopology() {}

  /** The stamp of every version the plan's slices read. */
  public static DataStream<VersionStamp> stamps(
      StreamExecutionEnvironment env, TableLocation table, TableStorageFactory storage, CleanupPlan plan) {
    return marked(env, table, storage, plan).getSideOutput(MarkReportAges.STAMPS);
  }

  /** Each classify subtask's counters of every listed file, against the ages the slices give. */
  public static DataStream<StorageCounters> counters(
      StreamExecutionEnvironment env, TableLocation table, TableStorageFactory storage, CleanupPlan plan,
      ReportContext context) {
    int parallelism = env.getParallelism();
    SingleOutputStreamOperator<FileEntry> files =
        env.fromData(plan.listings(), CleanupTypes.LISTING).name(name("listings", table)).setParallelism(1)
            .rebalance()
            .flatMap(new ListFiles(table, storage), CleanupTypes.FILE).name(name("list", table))
            .setParallelism(Math.max(1, Math.min(parallelism, plan.listings().size())));
    DataStream<ReportInput> keyed = marked(env, table, storage, plan)
        .union(files.map(new FileInput(context), INPUT).name(name("files-by-key", table)));
    return keyed.keyBy(new Keys.ByReportKey(), Types.STRING)
        .transform(name("classify", table), COUNTERS, new ClassifyKeys.Operator(context));
  }

  private static SingleOutputStreamOperator<ReportInput> marked(
      StreamExecutionEnvironment env, TableLocation table, TableStorageFactory storage, CleanupPlan plan) {
    return env.fromData(plan.slices(), SLICE).name(name("slices", table)).setParallelism(1)
        .rebalance()
        .process(new MarkReportAges(table, storage, plan.facts()), INPUT).name(name("mark", table))
        .setParallelism(Math.max(1, Math.min(env.getParallelism(), plan.slices().size())));
  }

  private static String name(String stage, TableLocation table) {
    return "lance describe " + stage + " " + table;
  }

  /** A listed file under its reference key in the dataset reported on. */
  static final class FileInput implements MapFunction<FileEntry, ReportInput> {
    private final ReportContext context;
    private transient ClassifyFiles keys;

    FileInput(ReportContext context) {
      this.context = context;
    }

    @Override
    public ReportInput map(FileEntry file) {
      if (keys == null) {
        keys = new ClassifyFiles(context);
      }
      return new ReportInput(keys.keyOf(file.path()), null, file);
    }
  }
}
