package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Plumbing shared by the engines' actions: collects the policy and settings from the fluent setters
 * and fixes "now" once from the injected clock. Holds no semantics; those live in the stages.
 */
public abstract class BaseCleanupAction implements CleanupAction {
  private final TableLocation table;
  private final Clock clock;
  private final CleanupPolicy.Builder policy = CleanupPolicy.builder();
  private Duration olderThan = CleanupPolicy.DEFAULT_OLDER_THAN;
  private Instant beforeTimestamp;
  private CleanupSettings settings = CleanupSettings.DEFAULT;
  private Consumer<CandidateFile> removedFileListener = file -> {};

  protected BaseCleanupAction(TableLocation table, Clock clock) {
    this.table = Objects.requireNonNull(table, "table");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public CleanupAction olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    this.olderThan = value;
    this.beforeTimestamp = null;
    return this;
  }

  @Override
  public CleanupAction beforeTimestamp(Instant instant) {
    this.beforeTimestamp = Objects.requireNonNull(instant, "beforeTimestamp");
    return this;
  }

  @Override
  public CleanupAction beforeVersion(long version) {
    policy.beforeVersion(version);
    return this;
  }

  @Override
  public CleanupAction deleteUnverified(boolean value) {
    policy.deleteUnverified(value);
    return this;
  }

  @Override
  public CleanupAction errorIfTaggedOldVersions(boolean value) {
    policy.errorIfTaggedOldVersions(value);
    return this;
  }

  @Override
  public CleanupAction cleanReferencedBranches(boolean value) {
    policy.cleanReferencedBranches(value);
    return this;
  }

  @Override
  public CleanupAction dryRun(boolean dryRun) {
    settings = settings.withMode(dryRun ? CleanupMode.DRY_RUN : CleanupMode.EXECUTE);
    return this;
  }

  @Override
  public CleanupAction onRemovedFile(Consumer<CandidateFile> listener) {
    this.removedFileListener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  @Override
  public CleanupAction maxConcurrentDeletes(int value) {
    settings = settings.withMaxConcurrentDeletes(value);
    return this;
  }

  @Override
  public CleanupAction deleteRateLimit(long filesPerSecond) {
    settings = settings.withDeleteRateLimit(filesPerSecond);
    return this;
  }

  protected TableLocation table() {
    return table;
  }

  protected Clock clock() {
    return clock;
  }

  protected CleanupSettings settings() {
    return settings;
  }

  protected Consumer<CandidateFile> removedFileListener() {
    return removedFileListener;
  }

  /** The policy, with {@code older_than} turned into an instant from {@code now}. */
  protected CleanupPolicy policy(Instant now) {
    policy.beforeTimestamp(beforeTimestamp != null ? beforeTimestamp : now.minus(olderThan));
    return policy.build();
  }
}
