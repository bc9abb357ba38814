package dev.lancemaintenance.testing;

import java.util.Map;
import java.util.Objects;

/**
 * How a fixture table is created; both settings are fixed when the first version is written.
 *
 * @param manifestNaming V2 ({@code u64::MAX - version}, the SDK default) or V1 ({@code N.manifest})
 * @param rowIds stable row ids on or off (off is the SDK default)
 * @param storageOptions the SDK's object-store options (keys, endpoint) for tables on S3 and
 *     the like; empty for local tables
 */
public record FixtureOptions(
    ManifestNaming manifestNaming, RowIds rowIds, Map<String, String> storageOptions) {
  public enum ManifestNaming {
    V1,
    V2
  }

  public enum RowIds {
    ADDRESS,
    STABLE
  }

  public FixtureOptions {
    Objects.requireNonNull(manifestNaming, "manifestNaming");
    Objects.requireNonNull(rowIds, "rowIds");
    storageOptions = Map.copyOf(storageOptions);
  }

  public static FixtureOptions defaults() {
    return new FixtureOptions(ManifestNaming.V2, RowIds.ADDRESS, Map.of());
  }

  public FixtureOptions withV1ManifestNames() {
    return new FixtureOptions(ManifestNaming.V1, rowIds, storageOptions);
  }

  public FixtureOptions withStableRowIds() {
    return new FixtureOptions(manifestNaming, RowIds.STABLE, storageOptions);
  }

  /** Options every SDK call on the table gets (S3 credentials and endpoint, ...). */
  public FixtureOptions withStorageOptions(Map<String, String> options) {
    return new FixtureOptions(manifestNaming, rowIds, options);
  }
}
