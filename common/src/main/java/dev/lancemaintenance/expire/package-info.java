/**
 * {@code expire_versions}: removes the manifests of the versions a policy expires without the mark
 * phase, after recording in the maintenance ledger's directory what only they referenced
 * ({@link dev.lancemaintenance.ledger.ExpiryRecord}), so that a later cleanup (the sweep) removes
 * their files exactly as one cleanup with that policy would have (docs/cleanup-semantics.md,
 * section 17).
 *
 * <p>Rules of the package: which versions go is decided by the cleanup's own {@link
 * dev.lancemaintenance.cleanup.plan.RetentionFacts#classify} and planner; what a manifest
 * references by the cleanup's own {@link dev.lancemaintenance.cleanup.stage.MarkManifests}; the tag
 * refusal by {@link dev.lancemaintenance.cleanup.stage.MarkSummary#refuseTaggedOldVersions}. Nothing
 * here decides a data file: only manifests are deleted, and only after their record reads back.
 */
package dev.lancemaintenance.expire;
