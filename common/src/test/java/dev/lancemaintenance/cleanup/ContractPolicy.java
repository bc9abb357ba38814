package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.testing.OraclePolicy;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * One policy, applied identically to the SDK's cleanup and to ours.
 *
 * @param label how the case names it in test output
 */
public record ContractPolicy(
    String label,
    Instant beforeTimestamp,
    OptionalLong beforeVersion,
    boolean deleteUnverified,
    boolean errorIfTaggedOldVersions) {

  public static ContractPolicy before(String label, Instant cutoff) {
    return new ContractPolicy(label, cutoff, OptionalLong.empty(), false, true);
  }

  public ContractPolicy withBeforeVersion(long version) {
    return new ContractPolicy(label + ", before v" + version, beforeTimestamp, OptionalLong.of(version), deleteUnverified, errorIfTaggedOldVersions);
  }

  public ContractPolicy withDeleteUnverified() {
    return new ContractPolicy(label + ", delete_unverified", beforeTimestamp, beforeVersion, true, errorIfTaggedOldVersions);
  }

  public ContractPolicy withoutTaggedError() {
    return new ContractPolicy(label + ", no tagged error", beforeTimestamp, beforeVersion, deleteUnverified, false);
  }

  public OraclePolicy toOracle() {
    OraclePolicy.Builder builder =
        OraclePolicy.builder()
            .beforeTimestamp(beforeTimestamp)
            .deleteUnverified(deleteUnverified)
            .errorIfTaggedOldVersions(errorIfTaggedOldVersions);
    beforeVersion.ifPresent(builder::beforeVersion);
    return builder.build();
  }

  public CleanupAction applyTo(CleanupAction action) {
    action
        .beforeTimestamp(beforeTimestamp)
        .deleteUnverified(deleteUnverified)
        .errorIfTaggedOldVersions(errorIfTaggedOldVersions);
    beforeVersion.ifPresent(action::beforeVersion);
    return action;
  }

  @Override
  public String toString() {
    return label;
  }
}
