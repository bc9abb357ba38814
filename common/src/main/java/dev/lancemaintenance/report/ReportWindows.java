package dev.lancemaintenance.report;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.OlderThan;
import dev.lancemaintenance.cleanup.RetentionGuard;
import dev.lancemaintenance.cleanup.TaggedVersionsException;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The policies a report answers for, placed on the driver from the version stamps the mark
 * returned: for each, the cleanup's own reduction ({@link MarkSummary#ofVersion}) and decision
 * context ({@link DecisionContext#of}), as the cleanup's tagged-versions gate computes them.
 */
public final class ReportWindows {
  /** The windows of the what-if when none are given: 0 s, 1 h, 1 d, 7 d, 30 d. */
  public static final List<Duration> DEFAULT_WINDOWS =
      List.of(Duration.ZERO, Duration.ofHours(1), Duration.ofDays(1), Duration.ofDays(7), Duration.ofDays(30));

  private ReportWindows() {}

  /** Windows from text ({@code 0s,1h,1d}), each in the grammar of {@code older_than}; the error names the bad one. */
  public static List<Duration> parse(String commaSeparated) {
    List<Duration> windows = new ArrayList<>();
    for (String part : commaSeparated.split(",")) {
      if (part.isBlank()) {
        throw new IllegalArgumentException("windows: an empty window in '" + commaSeparated + "'");
      }
      try {
        windows.add(OlderThan.duration(part));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("windows: '" + part.trim() + "' is not a duration: " + e.getMessage(), e);
      }
    }
    return List.copyOf(windows);
  }

  /** A window as the report names it: {@code 0s}, {@code 1h}, {@code 7d}, {@code 90m}. */
  public static String label(Duration window) {
    long seconds = window.getSeconds();
    if (seconds > 0 && seconds % 86_400 == 0) {
      return seconds / 86_400 + "d";
    }
    if (seconds > 0 && seconds % 3_600 == 0) {
      return seconds / 3_600 + "h";
    }
    if (seconds > 0 && seconds % 60 == 0) {
      return seconds / 60 + "m";
    }
    return seconds + "s";
  }

  /** The facts with the policy's cut-off left out: which versions keep their files whatever the window. */
  static RetentionFacts timeless(RetentionFacts facts) {
    return withPolicy(facts, withCutoff(facts.policy(), Optional.empty()));
  }

  /** {@code policy} with another {@code before_timestamp}; every other option stays. */
  static CleanupPolicy withCutoff(CleanupPolicy policy, Optional<Instant> beforeTimestamp) {
    return new CleanupPolicy(beforeTimestamp, policy.beforeVersion(), policy.deleteUnverified(),
        policy.errorIfTaggedOldVersions(), policy.cleanReferencedBranches(), policy.unverifiedGuard(),
        policy.retainLast(), policy.orphanSweep());
  }

  /** The given policy, as the report's "reclaimable now". */
  static ReportWindow given(RetentionFacts facts, List<VersionStamp> versions) {
    return window("policy", facts, versions);
  }

  /** The given policy with {@code older_than} = {@code window}. */
  static ReportWindow of(Duration window, RetentionFacts facts, List<VersionStamp> versions) {
    Instant now = Instant.ofEpochMilli(facts.nowMillis());
    CleanupPolicy policy = withCutoff(facts.policy(), Optional.of(now.minus(window)));
    return window(label(window), withPolicy(facts, policy), versions);
  }

  private static ReportWindow window(String label, RetentionFacts facts, List<VersionStamp> versions) {
    MarkSummary summary = MarkSummary.EMPTY;
    for (VersionStamp stamp : versions) {
      summary = summary.plus(MarkSummary.ofVersion(
          facts, stamp.version(), stamp.timestampNanos(), facts.classify(stamp.version(), stamp.timestampNanos())));
    }
    return new ReportWindow(label, facts.policy(), DecisionContext.of(facts, summary), summary.expiredVersions(),
        summary.taggedOldVersions(), refusal(facts, summary));
  }

  /** Why the cleanup with these facts would refuse before its first delete: its own gates' words. */
  private static Optional<String> refusal(RetentionFacts facts, MarkSummary summary) {
    try {
      CleanupPolicy policy = facts.policy();
      RetentionGuard.check(facts.describe(), policy, Instant.ofEpochMilli(facts.nowMillis()), policy.unverifiedGuard().isZero());
      summary.refuseTaggedOldVersions(facts);
      return Optional.empty();
    } catch (TaggedVersionsException e) {
      return Optional.of("tagged versions would go: " + String.join(", ", new TreeSet<>(summary.taggedOldVersions().keySet())));
    } catch (MaintenanceException e) {
      return Optional.of("retention guard: delete_unverified with a window under "
          + label(facts.policy().unverifiedGuard()) + " (allow_short_retention lifts it)");
    }
  }

  private static RetentionFacts withPolicy(RetentionFacts facts, CleanupPolicy policy) {
    return new RetentionFacts(facts.table(), facts.dataset(), policy, facts.latestVersion(),
        facts.tagsByVersion(), facts.forkPoints(), facts.nowMillis());
  }
}
