package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.compaction.OptimizeResult;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalCompactionEngine;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.time.Clock;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * One kind of periodic run: cleanup, compaction or optimize, each with the local engines inside the
 * trigger's task (a streaming job cannot start a nested batch job from an operator), and what it
 * removed for the metrics.
 *
 * @param <R> the run's result, emitted downstream
 */
public interface PeriodicTask<R> extends Serializable {
  String name();

  /** The options a run of this kind takes: what {@code PeriodicMaintenance.options} is checked against. */
  OptionCatalogue catalogue();

  R run(PeriodicSpec spec);

  /** How Flink ships the run's result to the next operator. */
  TypeInformation<R> resultType();

  /** Files the run deleted (compaction deletes none: it replaces fragments in a new version). */
  long filesDeleted(R result);

  long bytesDeleted(R result);

  static PeriodicTask<CleanupResult> cleanup() {
    return new Cleanup();
  }

  static PeriodicTask<CompactResult> compaction() {
    return new Compaction();
  }

  static PeriodicTask<OptimizeResult> optimize() {
    return new Optimize();
  }

  private static LocalCleanupAction cleanupOf(PeriodicSpec spec, TableStorageFactory storage) {
    return new LocalCleanupAction(spec.table(), storage, Clock.systemUTC());
  }

  private static CompactAction compactionOf(PeriodicSpec spec) {
    return new EngineCompactAction(CompactionTable.of(spec.table(), spec.sdkOptions()), new LocalCompactionEngine()).policy(spec.compaction());
  }

  final class Cleanup implements PeriodicTask<CleanupResult> {
    @Override
    public String name() {
      return "cleanup";
    }

    @Override
    public OptionCatalogue catalogue() {
      return CleanupOption.CATALOGUE;
    }

    @Override
    public CleanupResult run(PeriodicSpec spec) {
      LocalCleanupAction action = cleanupOf(spec, HadoopTableStorage.factory(spec.storage()));
      action.olderThan(spec.olderThan());
      action.options(spec.cleanupOptions());
      return action.execute();
    }

    @Override
    public TypeInformation<CleanupResult> resultType() {
      return TypeInformation.of(CleanupResult.class);
    }

    @Override
    public long filesDeleted(CleanupResult result) {
      return result.counters().filesRemoved();
    }

    @Override
    public long bytesDeleted(CleanupResult result) {
      return result.counters().bytesRemoved();
    }
  }

  final class Compaction implements PeriodicTask<CompactResult> {
    @Override
    public String name() {
      return "compact";
    }

    @Override
    public OptionCatalogue catalogue() {
      return CompactionOption.CATALOGUE;
    }

    @Override
    public CompactResult run(PeriodicSpec spec) {
      return compactionOf(spec).execute();
    }

    @Override
    public TypeInformation<CompactResult> resultType() {
      return TypeInformation.of(CompactResult.class);
    }

    @Override
    public long filesDeleted(CompactResult result) {
      return 0;
    }

    @Override
    public long bytesDeleted(CompactResult result) {
      return 0;
    }
  }

  final class Optimize implements PeriodicTask<OptimizeResult> {
    @Override
    public String name() {
      return "optimize";
    }

    @Override
    public OptionCatalogue catalogue() {
      return OptimizeAction.OPTIONS;
    }

    @Override
    public OptimizeResult run(PeriodicSpec spec) {
      TableStorageFactory storage = HadoopTableStorage.factory(spec.storage());
      return new OptimizeAction(spec.table(), storage, compactionOf(spec), cleanupOf(spec, storage), Clock.systemUTC())
          .olderThan(spec.olderThan())
          .options(spec.cleanupOptions())
          .execute();
    }

    /**
     * Java-serialized: Flink's POJO analysis hands the {@code Optional} compaction to Kryo, and
     * Flink 1.20's Kryo cannot write the record inside it.
     */
    @Override
    public TypeInformation<OptimizeResult> resultType() {
      return new JavaSerializedType<>(OptimizeResult.class);
    }

    @Override
    public long filesDeleted(OptimizeResult result) {
      return result.cleanup().counters().filesRemoved();
    }

    @Override
    public long bytesDeleted(OptimizeResult result) {
      return result.cleanup().counters().bytesRemoved();
    }
  }
}
