package dev.lancemaintenance.cleanup.plan;

/** The fate of one version under a policy. */
public enum VersionRetention {
  /** The latest version, anything newer, or a version the policy does not reach. */
  RETAINED,
  /** A version a branch was forked from: its manifest stays so the branch keeps its lineage. */
  RETAINED_FORK_POINT,
  /**
   * A tagged version the policy would remove. Kept; with {@code error_if_tagged_old_versions} the
   * whole run refuses before deleting anything.
   */
  TAGGED_BUT_OLD,
  /** Removed: its manifest goes, and every file only such versions referenced. */
  EXPIRED;

  /**
   * Whether the version's files stay for its own sake, and its timestamp bounds the listing cut-off.
   * A fork point does not: Lance 7 keeps only its manifest and lets the branch's manifests protect
   * the files the branch reads (docs/cleanup-semantics.md, section 4).
   */
  public boolean keepsFiles() {
    return this == RETAINED || this == TAGGED_BUT_OLD;
  }
}
