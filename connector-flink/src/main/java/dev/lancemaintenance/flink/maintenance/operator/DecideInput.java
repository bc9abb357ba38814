package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;

/**
 * What the decide operator receives for one reference key: either a mark from a manifest or a
 * listed file. The two streams are unioned under this type and keyed by {@link #key()}, so that
 * Flink brings every mark and file of a key to the same subtask, one key at a time (BATCH mode).
 *
 * @param key the reference key ({@link ReferenceKeys#keyOf})
 * @param mark a mark, or null when this is a file
 * @param file a listed file, or null when this is a mark
 */
public record DecideInput(String key, ReferenceMark mark, FileEntry file) {
  public DecideInput {
    if (key == null || (mark == null) == (file == null)) {
      throw new IllegalArgumentException("A decide input is a key with exactly one of mark or file: " + key);
    }
  }

  public static DecideInput of(ReferenceMark mark) {
    return new DecideInput(mark.key(), mark, null);
  }

  public static DecideInput of(FileEntry file, DatasetRef dataset) {
    return new DecideInput(ReferenceKeys.keyOf(dataset, file.path()), null, file);
  }
}
