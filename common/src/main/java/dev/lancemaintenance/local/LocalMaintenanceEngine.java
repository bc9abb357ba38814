package dev.lancemaintenance.local;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * The {@code local} engine: {@link LocalCleanupAction} and compaction on {@link LocalCompactionEngine}, on this
 * machine. Engine options: {@value #PARALLELISM} (of the cleanup), and {@value #SPILL_DIR} (CLI
 * {@code --spill-dir}; default the {@value LocalCleanupAction#SPILL_DIR_PROPERTY} system property,
 * else java.io.tmpdir).
 */
public final class LocalMaintenanceEngine extends MaintenanceEngine {
  /** The cleanup's threads. */
  public static final String PARALLELISM = "parallelism";
  /** Where the run's spill of the table's path lists goes. */
  public static final String SPILL_DIR = "spill_dir";

  public LocalMaintenanceEngine() {
    super("local", Set.of(PARALLELISM, SPILL_DIR));
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    checked(engineOptions);
    LocalCleanupAction action =
        new LocalCleanupAction(
            TableLocation.of(tableUri), TableStorages.factory(StorageConf.of(storageOptions)), Clock.systemUTC());
    String parallelism = engineOptions.get(PARALLELISM);
    if (parallelism != null) {
      action.parallelism(Integer.parseInt(parallelism));
    }
    String spillDir = engineOptions.get(SPILL_DIR);
    if (spillDir != null) {
      action.spillDirectory(Path.of(spillDir));
    }
    return action;
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    checked(engineOptions);
    return new EngineCompactAction(CompactionTable.of(TableLocation.of(tableUri), sdkStorageOptions), new LocalCompactionEngine());
  }
}
