package dev.lancemaintenance.cleanup;

import java.util.Locale;

/** Why a file is removed. {@link #sqlName()} is the value shown in result rows and JSON. */
public enum RemovalReason {
  /** The manifest of a version the policy removes, or a file only such versions referenced. */
  EXPIRED_VERSION,
  /** No manifest references the file and it is older than the 7-day unverified threshold. */
  UNVERIFIED_OLDER_THAN_7D,
  /** No manifest references the file and {@code delete_unverified} was set. */
  UNVERIFIED_DELETE_UNVERIFIED;

  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
