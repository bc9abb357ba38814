package dev.lancemaintenance.ledger;

import java.util.Set;

/** Appends to a ledger in tests as a run does: the segment applied to what the read folded, then committed. */
public final class LedgerAppends {
  private LedgerAppends() {}

  /** {@link Ledger#append} of {@code segment} after {@code previous}, which this folds further (use each read once). */
  public static boolean append(Ledger ledger, LedgerRead previous, LedgerSegment segment, Set<Long> listedVersions) {
    LedgerState continued = previous.state().orElseGet(() -> new LedgerState(ledger.fingerprint(), ledger.dataset()));
    continued.apply("new segment", segment);
    return ledger.append(previous, segment, continued, listedVersions);
  }
}
