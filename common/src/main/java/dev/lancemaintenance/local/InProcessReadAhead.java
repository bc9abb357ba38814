package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.engine.InProcessRun;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.ledger.KeySnapshotMark;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ListingChoice;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * What an engine that distributes (Spark, Flink) starts before its plan lists {@code _versions/},
 * so that a run it then cleans in its own process is the local engine's run from the start: the
 * ledger read ahead (the key snapshot instead, where the engine may clean in process) and the
 * choice whether that run lists or examines names instead ({@link ListingChoice#of}). The one home
 * of those steps for both engines (the base action cannot hold them: {@code cleanup.engine} does not
 * import {@code ledger} or {@code local}). Close it before the storage.
 *
 * @param ledger read ahead for the plan; a run distributed after all marks from it as before
 */
public record InProcessReadAhead(TableStorage storage, LedgerReadAhead ledger, ListingChoice choice) implements AutoCloseable {
  /**
   * @param mayCleanInProcess the action's {@code distribute_above} is above 0: the daily run reads the
   *     key snapshot ahead instead of the ledger
   * @param mayExamineNames a run in process may examine names instead of listing (the action's
   *     {@code mayExamineNamesInProcess})
   * @param putMargin the action's {@code PUT} margin; empty for the default
   */
  public static InProcessReadAhead start(TableStorage storage, DatasetCleanup cleanup, MarkMode mode, Clock clock,
      boolean mayCleanInProcess, boolean mayExamineNames, Optional<Duration> putMargin) {
    LedgerReadAhead ledger = mayCleanInProcess
        ? LedgerReadAhead.startUnlessKeySnapshot(storage, cleanup.dataset(), mode, clock, mayExamineNames)
        : LedgerReadAhead.start(storage, cleanup.dataset(), mode, clock);
    ListingChoice choice = ListingChoice.of(mayExamineNames, storage, cleanup, ledger, putMargin, mode == MarkMode.VERIFY);
    return new InProcessReadAhead(storage, ledger, choice);
  }

  /** What the plan's listing of {@code _versions/} is given ({@link LocalCleanupAction#readsEarly}). */
  public Consumer<FileEntry> readsEarly() {
    return LocalCleanupAction.readsEarly(ledger, choice);
  }

  /** The manifests a run of {@code plan} from the key snapshot read ahead decodes ({@link KeySnapshotMark#versionsToDecode}). */
  public OptionalLong versionsToDecode(CleanupPlan plan) {
    return KeySnapshotMark.versionsToDecode(storage, plan, ledger);
  }

  /** The run cleaned in this process on the local engine, with what was read ahead and chosen. */
  public CleanupResult clean(InProcessRun run) {
    return LocalCleanupAction.clean(run, ledger, choice);
  }

  /** Waits for the choice's and the ledger's reads, in that order; never throws from the choice. */
  @Override
  public void close() {
    choice.close();
    ledger.close();
  }
}
