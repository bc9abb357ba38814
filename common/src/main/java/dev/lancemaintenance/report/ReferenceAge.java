package dev.lancemaintenance.report;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.format.FileKind;
import java.io.Serializable;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the report's mark knows of one reference key: enough to give the file its mark state under
 * any retention window, where the cleanup's mark gives it one state for one policy.
 *
 * <p>A version "pins" its files when it keeps them whatever the window: the latest version (and
 * anything newer), a version the policy's {@code before_version} does not reach, a tagged version,
 * and every version of a branch that reads this dataset. Under a policy that differs from the base
 * only in its cut-off, a key is kept exactly when a pinning version references it or its newest
 * other referencing version is not older than the cut-off ({@link #stateUnder}).
 *
 * @param key the reference key (a file, or an index directory)
 * @param kind the role the manifests give it
 * @param referencedByLatest whether the latest version references it
 * @param pinned whether a pinning version references it
 * @param newestVersion the newest (by manifest timestamp) non-pinning version that references it, -1
 *     when none does
 * @param newestNanos that version's manifest timestamp, {@link Long#MIN_VALUE} when none
 * @param pins the tags ({@code tag:<name>}) and branches ({@code branch:<name>}) whose versions
 *     reference it
 */
public record ReferenceAge(
    String key,
    FileKind kind,
    boolean referencedByLatest,
    boolean pinned,
    long newestVersion,
    long newestNanos,
    Set<String> pins)
    implements Serializable {

  public ReferenceAge {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(kind, "kind");
    pins = Set.copyOf(pins);
  }

  /** The age after also seeing {@code other} for the same key. */
  public ReferenceAge merge(ReferenceAge other) {
    boolean otherNewer = other.newestNanos > newestNanos
        || (other.newestNanos == newestNanos && other.newestVersion > newestVersion);
    Set<String> allPins = pins;
    if (!other.pins.isEmpty() && !pins.containsAll(other.pins)) {
      allPins = new TreeSet<>(pins);
      allPins.addAll(other.pins);
    }
    return new ReferenceAge(
        key,
        kind,
        referencedByLatest || other.referencedByLatest,
        pinned || other.pinned,
        otherNewer ? other.newestVersion : newestVersion,
        otherNewer ? other.newestNanos : newestNanos,
        allPins);
  }

  /**
   * The cleanup's mark state of this key under {@code policy}, which must differ from the policy
   * the age was marked with only in its cut-off: kept when pinned or when the newest referencing
   * version does not qualify for removal.
   */
  public MarkState stateUnder(CleanupPolicy policy) {
    boolean kept = pinned || (newestVersion >= 0 && !policy.qualifies(newestVersion, newestNanos));
    return kept ? MarkState.KEPT : MarkState.EXPIRED;
  }
}
