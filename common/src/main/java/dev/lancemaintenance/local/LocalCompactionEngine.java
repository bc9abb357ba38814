package dev.lancemaintenance.local;

import dev.lancemaintenance.compaction.CompactAction;
import dev.lancemaintenance.compaction.CompactionEngine;
import dev.lancemaintenance.compaction.CompactionTable;
import dev.lancemaintenance.storage.TableLocation;
import java.util.Map;

/** The {@code local} engine for compaction: {@link LocalCompactAction} on this machine. */
public final class LocalCompactionEngine implements CompactionEngine {
  @Override
  public String name() {
    return "local";
  }

  @Override
  public CompactAction compact(String tableUri, Map<String, String> sdkStorageOptions, Map<String, String> engineOptions) {
    return new LocalCompactAction(CompactionTable.of(TableLocation.of(tableUri), sdkStorageOptions));
  }
}
