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

  /**
   * The configuration, rebuilt once per instance (a deserialized copy on each executor or subtask)
   * from the copied entries over Hadoop's defaults. The defaults are parsed once per class loader
   * ({@link ParsedDefaults}) and copied, instead of parsing core-default.xml and the site files
   * again for every instance: 10-25 ms of CPU each time, as much as a whole daily run of a table of a
   * few thousand versions spends deciding it.
   */
  public synchronized Configuration toConfiguration() {
    if (configuration == null) {
      Configuration conf = ParsedDefaults.copy();
      entries.forEach(conf::set);
      configuration = conf;
    }
    return configuration;
  }

  /**
   * Hadoop's default resources as {@code new Configuration()} would load them for the calling
   * thread's context class loader, parsed once and handed out as copies. A copy is the same
   * configuration as a new one: the same resources, properties and class loader; Hadoop reloads it,
   * as any other, when a default resource is added later ({@link Configuration#addDefaultResource}),
   * and then applies the entries set on it again. Kept for the last class loader only: the class
   * loaders that build configurations are few and long-lived (an application's, a job's), and one
   * held here never pins another.
   */
  private static final class ParsedDefaults {
    private static Configuration parsed;

    static synchronized Configuration copy() {
      ClassLoader loader = contextClassLoader();
      if (parsed == null || parsed.getClassLoader() != loader) {
        Configuration loaded = new Configuration();
        loaded.size(); // parses the default resources now, once, instead of in every copy
        parsed = loaded;
      }
      return new Configuration(parsed);
    }

    /** The class loader {@code new Configuration()} takes. */
    private static ClassLoader contextClassLoader() {
      ClassLoader context = Thread.currentThread().getContextClassLoader();
      return context != null ? context : Configuration.class.getClassLoader();
    }
  }

  @Override
  public String toString() {
    return "StorageConf(" + entries.size() + " entries)";
  }
}
