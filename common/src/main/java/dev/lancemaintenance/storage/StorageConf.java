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
   * s3a's switch for {@code Expect: 100-continue} on PUT (hadoop-aws 3.4+; older clients ignore it).
   * With it on, every PUT waits one round trip for the store's {@code 100 Continue} before it sends
   * its body: a run's records, lease generations and ledger files are a few hundred bytes each, and
   * each of them paid two round trips in a row (issue 15's request trace). Off unless the settings
   * say otherwise: the body is then sent at once, and a PUT the store refuses (a lost conditional
   * create, a denied write) costs that small body once more, nothing else.
   */
  static final String S3A_EXPECT_CONTINUE = "fs.s3a.connection.expect.continue";

  /** The configuration, rebuilt once per JVM from the copied entries and {@link #S3A_EXPECT_CONTINUE}. */
  public synchronized Configuration toConfiguration() {
    if (configuration == null) {
      Configuration conf = new Configuration();
      entries.forEach(conf::set);
      if (!has(S3A_EXPECT_CONTINUE)) {
        conf.setBoolean(S3A_EXPECT_CONTINUE, false);
      }
      configuration = conf;
    }
    return configuration;
  }

  @Override
  public String toString() {
    return "StorageConf(" + entries.size() + " entries)";
  }
}
