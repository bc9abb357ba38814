package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupEngine;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.util.Map;

/**
 * The {@code local} engine: {@link LocalCleanupAction} on this machine. Engine options: {@code
 * parallelism}, and {@value #SPILL_DIR} (CLI {@code --spill-dir}; default the {@value
 * LocalCleanupAction#SPILL_DIR_PROPERTY} system property, else java.io.tmpdir).
 */
public final class LocalCleanupEngine implements CleanupEngine {
  /** Where the run's spill of the table's path lists goes. */
  public static final String SPILL_DIR = "spill_dir";

  @Override
  public String name() {
    return "local";
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    CleanupEngine.requireKnownOptions(name(), engineOptions, java.util.Set.of("parallelism", SPILL_DIR));
    LocalCleanupAction action =
        new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(storageOptions)), Clock.systemUTC());
    String parallelism = engineOptions.get("parallelism");
    if (parallelism != null) {
      action.parallelism(Integer.parseInt(parallelism));
    }
    String spillDir = engineOptions.get(SPILL_DIR);
    if (spillDir != null) {
      action.spillDirectory(java.nio.file.Path.of(spillDir));
    }
    return action;
  }
}
