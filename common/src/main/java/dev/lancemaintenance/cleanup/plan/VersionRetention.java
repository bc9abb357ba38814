package dev.lancemaintenance.cleanup.plan;

/** The fate of one version under a policy. */
public enum VersionRetention {
  /** The latest version, anything newer, or a version the policy does not reach. */
  RETAINED,
  /** A version a branch was forked from; kept so the branch keeps reading. */
  RETAINED_FORK_POINT,
  /**
   * A tagged version the policy would remove. Kept; with {@code error_if_tagged_old_versions} the
   * whole run refuses before deleting anything.
   */
  TAGGED_BUT_OLD,
  /** Removed: its manifest goes, and every file only such versions referenced. */
  EXPIRED;

  public boolean retained() {
    return this != EXPIRED;
  }
}
