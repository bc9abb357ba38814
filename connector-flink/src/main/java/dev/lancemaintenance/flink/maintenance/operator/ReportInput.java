package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.report.ReferenceAge;
import dev.lancemaintenance.storage.FileEntry;
import java.io.Serializable;

/**
 * What the report's classify operator receives for one reference key: the age a slice's manifests
 * gave it, or a listed file. As {@link DecideInput} for the cleanup: the two streams are unioned
 * under this type and keyed by {@link #key()}.
 *
 * @param key the reference key
 * @param age an age, or null when this is a file
 * @param file a listed file, or null when this is an age
 */
public record ReportInput(String key, ReferenceAge age, FileEntry file) implements Serializable {
  public ReportInput {
    if (key == null || (age == null) == (file == null)) {
      throw new IllegalArgumentException("A report input is a key with exactly one of age or file: " + key);
    }
  }
}
