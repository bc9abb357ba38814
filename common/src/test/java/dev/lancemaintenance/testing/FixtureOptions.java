package dev.lancemaintenance.testing;

import java.util.Objects;

/**
 * How a fixture table is created; both settings are fixed when the first version is written.
 *
 * @param manifestNaming V2 ({@code u64::MAX - version}, the SDK default) or V1 ({@code N.manifest})
 * @param rowIds stable row ids on or off (off is the SDK default)
 */
public record FixtureOptions(ManifestNaming manifestNaming, RowIds rowIds) {
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
  }

  public static FixtureOptions defaults() {
    return new FixtureOptions(ManifestNaming.V2, RowIds.ADDRESS);
  }

  public FixtureOptions withV1ManifestNames() {
    return new FixtureOptions(ManifestNaming.V1, rowIds);
  }

  public FixtureOptions withStableRowIds() {
    return new FixtureOptions(manifestNaming, RowIds.STABLE);
  }
}
