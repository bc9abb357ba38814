package dev.lancemaintenance.compaction;

import dev.lancemaintenance.storage.TableLocation;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * The table as the Lance SDK opens it, on the driver and on every worker: its URI in the SDK's
 * spelling and the SDK's object-store options (such as {@code aws_region}; these are Lance's
 * storage options, not Hadoop configuration keys).
 *
 * <p>Ships to workers. The options may hold secrets: {@link #toString()} shows neither them nor
 * the URI's user-info.
 *
 * @param uri what {@code Dataset.open} is given
 * @param storageOptions the SDK's storage options, copied
 */
public record CompactionTable(String uri, Map<String, String> storageOptions) implements Serializable {
  public CompactionTable {
    Objects.requireNonNull(uri, "uri");
    storageOptions = Map.copyOf(storageOptions);
  }

  /**
   * The table at {@code location} as the SDK spells it. Hadoop's {@code s3a://} is the SDK's
   * {@code s3://}; a local {@code file:} URI becomes a plain path, the spelling the SDK's writers
   * record for local tables.
   */
  public static CompactionTable of(TableLocation location, Map<String, String> storageOptions) {
    String uri = location.uri();
    if (uri.startsWith("s3a://")) {
      uri = "s3://" + uri.substring("s3a://".length());
    } else if (uri.startsWith("file:")) {
      uri = Path.of(URI.create(uri)).toString();
    }
    return new CompactionTable(uri, storageOptions);
  }

  @Override
  public String toString() {
    return TableLocation.redact(uri);
  }
}
