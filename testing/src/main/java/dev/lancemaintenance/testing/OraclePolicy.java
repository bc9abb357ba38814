package dev.lancemaintenance.testing;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.lance.cleanup.CleanupPolicy;

/**
 * The options of the SDK's {@code cleanupWithPolicy}; every one is optional so a test can leave the
 * SDK's own default in force (which is what our engine must reproduce).
 */
public record OraclePolicy(
    Optional<Instant> beforeTimestamp,
    OptionalLong beforeVersion,
    Optional<Boolean> deleteUnverified,
    Optional<Boolean> errorIfTaggedOldVersions,
    Optional<Boolean> cleanReferencedBranches) {

  public OraclePolicy {
    Objects.requireNonNull(beforeTimestamp, "beforeTimestamp");
    Objects.requireNonNull(beforeVersion, "beforeVersion");
    Objects.requireNonNull(deleteUnverified, "deleteUnverified");
    Objects.requireNonNull(errorIfTaggedOldVersions, "errorIfTaggedOldVersions");
    Objects.requireNonNull(cleanReferencedBranches, "cleanReferencedBranches");
  }

  public static Builder builder() {
    return new Builder();
  }

  CleanupPolicy toSdk() {
    CleanupPolicy.Builder sdk = CleanupPolicy.builder();
    beforeTimestamp.ifPresent(t -> sdk.withBeforeTimestampMillis(t.toEpochMilli()));
    beforeVersion.ifPresent(sdk::withBeforeVersion);
    deleteUnverified.ifPresent(sdk::withDeleteUnverified);
    errorIfTaggedOldVersions.ifPresent(sdk::withErrorIfTaggedOldVersions);
    cleanReferencedBranches.ifPresent(sdk::withCleanReferencedBranches);
    return sdk.build();
  }

  /** Unset options stay unset (the SDK default applies). */
  public static final class Builder {
    private Optional<Instant> beforeTimestamp = Optional.empty();
    private OptionalLong beforeVersion = OptionalLong.empty();
    private Optional<Boolean> deleteUnverified = Optional.empty();
    private Optional<Boolean> errorIfTaggedOldVersions = Optional.empty();
    private Optional<Boolean> cleanReferencedBranches = Optional.empty();

    private Builder() {}

    /** Versions whose manifest timestamp is before this instant (millisecond precision). */
    public Builder beforeTimestamp(Instant cutoff) {
      this.beforeTimestamp = Optional.of(cutoff);
      return this;
    }

    public Builder beforeVersion(long version) {
      this.beforeVersion = OptionalLong.of(version);
      return this;
    }

    public Builder deleteUnverified(boolean value) {
      this.deleteUnverified = Optional.of(value);
      return this;
    }

    public Builder errorIfTaggedOldVersions(boolean value) {
      this.errorIfTaggedOldVersions = Optional.of(value);
      return this;
    }

    public Builder cleanReferencedBranches(boolean value) {
      this.cleanReferencedBranches = Optional.of(value);
      return this;
    }

    public OraclePolicy build() {
      return new OraclePolicy(
          beforeTimestamp,
          beforeVersion,
          deleteUnverified,
          errorIfTaggedOldVersions,
          cleanReferencedBranches);
    }
  }
}
