package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.testing.OraclePolicy;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One policy, applied identically to the SDK's cleanup and to ours.
 *
 * @param label how the case names it in test output
 * @param branch the branch to clean (the SDK checks it out first); empty for the main line
 * @param cleanReferencedBranches Lance's {@code clean_referenced_branches}
 */
public record ContractPolicy(
    String label,
    Instant beforeTimestamp,
    OptionalLong beforeVersion,
    boolean deleteUnverified,
    boolean errorIfTaggedOldVersions,
    Optional<String> branch,
    boolean cleanReferencedBranches) {

  public static ContractPolicy before(String label, Instant cutoff) {
    return new ContractPolicy(label, cutoff, OptionalLong.empty(), false, true, Optional.empty(), false);
  }

  public ContractPolicy withBeforeVersion(long version) {
    return new ContractPolicy(label + ", before v" + version, beforeTimestamp, OptionalLong.of(version),
        deleteUnverified, errorIfTaggedOldVersions, branch, cleanReferencedBranches);
  }

  public ContractPolicy withDeleteUnverified() {
    return new ContractPolicy(label + ", delete_unverified", beforeTimestamp, beforeVersion,
        true, errorIfTaggedOldVersions, branch, cleanReferencedBranches);
  }

  public ContractPolicy withoutTaggedError() {
    return new ContractPolicy(label + ", no tagged error", beforeTimestamp, beforeVersion,
        deleteUnverified, false, branch, cleanReferencedBranches);
  }

  /** The same policy on branch {@code name} instead of the main line. */
  public ContractPolicy onBranch(String name) {
    return new ContractPolicy(label + ", branch " + name, beforeTimestamp, beforeVersion,
        deleteUnverified, errorIfTaggedOldVersions, Optional.of(name), cleanReferencedBranches);
  }

  public ContractPolicy withCleanReferencedBranches() {
    return new ContractPolicy(label + ", clean_referenced_branches", beforeTimestamp, beforeVersion,
        deleteUnverified, errorIfTaggedOldVersions, branch, true);
  }

  public OraclePolicy toOracle() {
    OraclePolicy.Builder builder =
        OraclePolicy.builder()
            .beforeTimestamp(beforeTimestamp)
            .deleteUnverified(deleteUnverified)
            .errorIfTaggedOldVersions(errorIfTaggedOldVersions)
            .cleanReferencedBranches(cleanReferencedBranches);
    beforeVersion.ifPresent(builder::beforeVersion);
    return builder.build();
  }

  public CleanupAction applyTo(CleanupAction action) {
    action
        .beforeTimestamp(beforeTimestamp)
        .deleteUnverified(deleteUnverified)
        // Compared with the SDK, which has no retention guard: lifted explicitly, as a user must.
        .allowShortRetention(deleteUnverified)
        .errorIfTaggedOldVersions(errorIfTaggedOldVersions)
        .cleanReferencedBranches(cleanReferencedBranches);
    beforeVersion.ifPresent(action::beforeVersion);
    branch.ifPresent(action::branch);
    return action;
  }

  @Override
  public String toString() {
    return label;
  }
}
