package dev.lancemaintenance.report;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One policy the report answers for: the given one, or the given one with another {@code
 * older_than}. Holds exactly what the cleanup with that policy would hand its decide stage, so the
 * report's prediction is the cleanup's decision.
 *
 * @param label how the report names it ({@code policy}, or the window: {@code 0s}, {@code 7d})
 * @param policy the cleanup policy
 * @param context the cleanup's decision context under it (its listing cut-off, thresholds)
 * @param versionsRemoved versions that cleanup would remove
 * @param taggedOldVersions tags whose version it would remove, tag to version; with {@code
 *     error_if_tagged_old_versions} (the default) that cleanup refuses and removes nothing
 * @param refusal why that cleanup would refuse before deleting anything, empty when it would run
 */
public record ReportWindow(
    String label,
    CleanupPolicy policy,
    DecisionContext context,
    long versionsRemoved,
    Map<String, Long> taggedOldVersions,
    Optional<String> refusal)
    implements Serializable {

  public ReportWindow {
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(context, "context");
    taggedOldVersions = Map.copyOf(taggedOldVersions);
    Objects.requireNonNull(refusal, "refusal");
  }

  /** Optional is not serializable: the refusal travels as a nullable string. */
  private Object writeReplace() {
    return new SerializedForm(label, policy, context, versionsRemoved, taggedOldVersions, refusal.orElse(null));
  }

  private record SerializedForm(
      String label, CleanupPolicy policy, DecisionContext context, long versionsRemoved,
      Map<String, Long> taggedOldVersions, String refusal)
      implements Serializable {
    private Object readResolve() {
      return new ReportWindow(label, policy, context, versionsRemoved, taggedOldVersions, Optional.ofNullable(refusal));
    }
  }
}
