package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupEngine;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.util.Map;

/** The {@code local} engine: {@link LocalCleanupAction} on this machine. Engine option: {@code parallelism}. */
public final class LocalCleanupEngine implements CleanupEngine {
  @Override
  public String name() {
    return "local";
  }

  @Override
  public CleanupAction cleanup(String tableUri, Map<String, String> storageOptions, Map<String, String> engineOptions) {
    CleanupEngine.requireKnownOptions(name(), engineOptions, java.util.Set.of("parallelism"));
    LocalCleanupAction action =
        new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.of(storageOptions)), Clock.systemUTC());
    String parallelism = engineOptions.get("parallelism");
    if (parallelism != null) {
      action.parallelism(Integer.parseInt(parallelism));
    }
    return action;
  }
}
