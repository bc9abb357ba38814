package dev.lancemaintenance.storage;

import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * A serializable copy of a Hadoop {@link Configuration}: what travels to executors and subtasks so
 * that each can open the table's file system with the session's settings (s3a endpoints,
 * credentials providers). Never print it: it may hold secrets.
 */
public final class StorageConf implements Serializable {
  private static final long serialVersionUID = 1L;

  private final Map<String, String> entries;
  private transient Configuration configuration;

  private StorageConf(Map<String, String> entries) {
    this.entries = entries;
  }

  /** Copies every entry of {@code configuration}. */
  public static StorageConf of(Configuration configuration) {
    Map<String, String> entries = new HashMap<>();
    for (Map.Entry<String, String> entry : configuration) {
      entries.put(entry.getKey(), entry.getValue());
    }
    return new StorageConf(entries);
  }

  /** Hadoop's defaults plus the given overrides (keys as in Hadoop, e.g. {@code fs.s3a.endpoint}). */
  public static StorageConf of(Map<String, String> overrides) {
    return new StorageConf(new HashMap<>(overrides));
  }

  /** Hadoop's defaults. */
  public static StorageConf defaults() {
    return new StorageConf(new HashMap<>());
  }

  /**
   * Whether {@code key} has a value here; an empty one, as Hadoop's core-default.xml gives {@code
   * fs.file.impl}, means Hadoop's default and does not count.
   */
  public boolean has(String key) {
    String value = entries.get(key);
    return value != null && !value.isBlank();
  }

  /** The configuration, rebuilt once per JVM from the copied entries. */
  public synchronized Configuration toConfiguration() {
    if (configuration == null) {
      Configuration conf = new Configuration();
      entries.forEach(conf::set);
      configuration = conf;
    }
    return configuration;
  }

  @Override
  public String toString() {
    return "StorageConf(" + entries.size() + " entries)";
  }
}
