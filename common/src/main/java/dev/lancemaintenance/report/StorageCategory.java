package dev.lancemaintenance.report;

/** What a listed file is for, under the report's policy. */
public enum StorageCategory {
  /** The latest version references it. */
  LATEST,
  /** Only older versions the policy keeps, tags or branches reference it (or it is too new to judge). */
  RETAINED,
  /** The cleanup with the report's policy removes it. */
  RECLAIMABLE,
  /** No version references it and the policy does not remove it (younger than 7 days, say). */
  UNVERIFIED,
  /** Outside what cleanup manages (hints, unknown files); never removed. */
  UNMANAGED;

  /** The SQL/JSON name: {@code latest}, {@code reclaimable}. */
  public String sqlName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
