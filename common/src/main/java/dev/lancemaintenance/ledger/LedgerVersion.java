package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.ManifestLocation;
import java.io.Serializable;
import java.util.Objects;

/**
 * One summarised version: which manifest file it was summarised from (its store identity) and the
 * commit time recorded inside it, which is all the retention rules need of a version besides its
 * references.
 *
 * @param version the version recorded inside the manifest
 * @param manifestPath table-relative path of the manifest
 * @param size the manifest's length in bytes when it was summarised
 * @param modificationTimeMillis the store's modification time of the manifest when it was summarised
 * @param timestampNanos the commit time inside the manifest (0 when it has none, as Lance reads it)
 */
public record LedgerVersion(long version, String manifestPath, long size, long modificationTimeMillis, long timestampNanos)
    implements Serializable {
  public LedgerVersion {
    Objects.requireNonNull(manifestPath, "manifestPath");
    if (size < 0) {
      throw new IllegalArgumentException("size must be >= 0 for " + manifestPath + ": " + size);
    }
  }

  /**
   * Whether a listed manifest is the very file this version was summarised from: same name, same
   * length, same modification time. Lance never rewrites a manifest (it creates each with
   * put-if-absent), so a difference in any of the three means another file under that name.
   */
  public boolean summarises(ManifestLocation listed) {
    return listed.path().equals(manifestPath)
        && listed.size() == size
        && listed.modificationTimeMillis() == modificationTimeMillis;
  }

  /** Writes this version as every ledger file holds one: version, manifest name, length, time, commit time. */
  void writeTo(java.io.DataOutput out) throws java.io.IOException {
    out.writeLong(version);
    out.writeUTF(manifestPath);
    out.writeLong(size);
    out.writeLong(modificationTimeMillis);
    out.writeLong(timestampNanos);
  }
}
