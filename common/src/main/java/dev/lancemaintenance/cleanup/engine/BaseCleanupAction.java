package dev.lancemaintenance.cleanup.engine;

import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.ReferencedBranches;
import dev.lancemaintenance.cleanup.RetentionGuard;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.runs.RunRecorder;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plumbing shared by the engines' actions: collects the policy and settings from the fluent setters,
 * fixes "now" once from the injected clock, and runs {@code clean_referenced_branches} as a sequence
 * of dataset cleanups. Engines implement {@link #cleanDataset} (the stages for one dataset); the
 * semantics live in the stages.
 *
 * <p>Self-typed: every setter returns the engine's own action ({@code SELF}), so an engine adds
 * its own settings without overriding the common ones only to narrow their return type.
 *
 * <p>A run that deletes holds the table's {@link TableLease} until it returns or fails, here, so
 * that no engine can forget it: it finds the lease free before it reads the table, and its take is
 * confirmed before it writes or deletes anything ({@link TableLease#acquireBeside}); a second run
 * on the table fails, naming the holder, with nothing written or deleted. A dry run takes none. Holding it, the run records
 * its start and its end ({@link RunRecorder}, the table's maintenance history), likewise on every
 * engine.
 */
public abstract class BaseCleanupAction<SELF extends BaseCleanupAction<SELF>> implements CleanupAction {
  private static final Logger LOG = LoggerFactory.getLogger(BaseCleanupAction.class);

  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final Clock clock;
  /** The engine's name in run records: {@code local}, {@code spark}, {@code flink}, {@code driver}. */
  private final String engineName;
  private DatasetRef dataset = DatasetRef.MAIN;
  private final CleanupPolicy.Builder policy = CleanupPolicy.builder();
  private Duration olderThan = CleanupPolicy.DEFAULT_OLDER_THAN;
  private Instant beforeTimestamp;
  private CleanupSettings settings = CleanupSettings.DEFAULT;
  private boolean allowShortRetention;
  private Duration retentionGuard = CleanupPolicy.DEFAULT_RETENTION_GUARD;
  private Consumer<CandidateFile> removedFileListener = file -> {};
  private MarkMode markMode = MarkMode.FULL;
  private boolean verify;
  private boolean orphanFilesOnly;
  private CleanupProgress progress = new CleanupProgress();
  private String inventory;
  private boolean recordFiles;
  /** {@code listing => 'always'}, the default until examining names is faster than listing on small tables too. */
  private boolean alwaysList = true;
  /** The {@code PUT} margin a run without a listing allows; empty: the listing skip's own ({@code ListingSkip.PUT_MARGIN}). */
  private Optional<Duration> putMargin = Optional.empty();
  /** {@code distribute_above}: read by the engines that distribute ({@link #cleanedInProcessBecause}). */
  private int distributeAbove = DistributeAbove.DEFAULT;
  /** Where the run under way records the files it deletes; null unless {@code record_files} and executing. */
  private volatile RecordedFiles recordedFiles;
  /** The record of the run under way, null in a dry run or between runs. */
  private volatile RunRecorder recorder;
  /** The lease of the run under way, null in a dry run or between runs. */
  private volatile TableLease lease;
  /** The run's storage, opened beside the lease's look until a dataset's run takes it ({@link #runStorage}). */
  private volatile CompletableFuture<TableStorage> storageAhead;
  /** What the engine's run handed over to close beside the end record ({@link #closeBesideTheEndRecord}). */
  private final RunCloses handedOver = new RunCloses();

  /** @param engineName the engine's name in run records: {@code local}, {@code spark}, {@code flink}, {@code driver} */
  protected BaseCleanupAction(TableLocation table, TableStorageFactory storageFactory, Clock clock, String engineName) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.engineName = Objects.requireNonNull(engineName, "engineName");
  }

  /**
   * Cleans the requested dataset; with {@code clean_referenced_branches}, its referenced branches
   * first (one dataset cleanup each). The result counts the requested dataset only, as Lance 7's
   * does: the branches' removals are logged (and each file audited) but not added (conformance
   * suite, scenario auto-cleanup-branches: same files left, Lance's counters exclude the branch's).
   */
  @Override
  public final CleanupResult execute() {
    // One "now" for the run and its record; a policy that cannot run is refused here, naming the
    // table, before the lease is taken or a run recorded.
    DatasetCleanup requested = requestedCleanup();
    if (settings.mode() == CleanupMode.DRY_RUN) {
      try {
        return executeHoldingLease(requested);
      } finally {
        handedOver.close();
      }
    }
    // The run's own storage opens beside the lease's storage and look, for an engine that takes it (runStorage).
    storageAhead = opensRunStorage() ? DaemonThreads.beside("lance-storage-open", () -> storageFactory.open(table)) : null;
    try {
      return executeUnderLease(requested);
    } finally {
      closeStorageNotTaken();
    }
  }

  /** {@link #execute} of a run that deletes: under the table's lease, its start and end recorded. */
  private CleanupResult executeUnderLease(DatasetCleanup requested) {
    try (TableStorage leaseStorage = storageFactory.open(table);
        TableLease held = takeLease(leaseStorage)) {
      lease = held;
      RunRecorder record = RunRecorder.start(
          leaseStorage, clock, held, dataset, engineName, actionName(), recordedPolicy(requested.policy()));
      recordedFiles = recordFiles ? record.recordFiles().orElse(null) : null;
      recorder = record;
      try {
        CleanupResult result = executeHoldingLease(requested);
        // A run that wrote nothing (every engine waits for its start record before its mark) ends
        // only under a lease it took.
        held.awaitTaken();
        CompletableFuture<Void> closing = DaemonThreads.beside("lance-run-close", () -> {
          handedOver.close();
          return null;
        });
        try {
          record.finishedAndPruned(result, progress.snapshot());
        } finally {
          awaitClosed(closing);
        }
        return result;
      } catch (RuntimeException | Error e) {
        handedOver.closeAfter(e);
        failIfTakeLost(held, e);
        record.failed(e, progress.snapshot(), markMode());
        throw e;
      } finally {
        lease = null;
        recordedFiles = null;
        recorder = null;
      }
    }
  }

  /**
   * The run's lease. Where requests wait on the network, in two steps: its head is looked at here,
   * and the run plans and lists while its generation is created and read back beside; everything
   * that writes or deletes waits for that (the start record, the recorded decision, {@link
   * #ensureLeaseHeld} before each delete, the ledger's and key snapshot's writes under the lease),
   * and a take another run won fails the run before any (docs/ledger.md, section 9, "The take
   * beside the plan", says why that is exact). Elsewhere (a local disk), where the take costs
   * microseconds, in one step before the run reads anything, as before.
   */
  private static TableLease takeLease(TableStorage storage) {
    return storage.requestsWaitOnNetwork() ? TableLease.acquireBeside(storage, "clean") : TableLease.acquire(storage, "clean");
  }

  /**
   * The storage a dataset's run works through, which the run closes: the one opened beside the
   * lease's storage and look for the first run of an execution that deletes, a new one otherwise.
   * Opening a storage sends no request (on s3a, a file system instance and its client are built,
   * some 10 ms of CPU); opened on a thread while the driver waits for the look's round trip, it
   * leaves the row before the plan's first request and changes nothing the run reads or decides:
   * it is the same factory's storage of the same table, opened a moment earlier. One a failed run
   * never took is closed before {@link #execute} returns.
   */
  protected final TableStorage runStorage() {
    CompletableFuture<TableStorage> ahead = storageAhead;
    storageAhead = null;
    return ahead != null ? DaemonThreads.join(ahead) : storageFactory.open(table);
  }

  /** Whether the engine's runs take their storage from {@link #runStorage}, so that it is worth opening ahead. */
  protected boolean opensRunStorage() {
    return false;
  }

  /** Closes the storage opened ahead when no run took it (the run failed before its plan). */
  private void closeStorageNotTaken() {
    CompletableFuture<TableStorage> ahead = storageAhead;
    storageAhead = null;
    TableStorage opened = ahead == null ? null : ahead.exceptionally(failed -> null).join();
    if (opened != null) {
      opened.close();
    }
  }

  /**
   * Hands what an engine's run of a dataset opened (its pool, walks, spills, storage) to be closed
   * beside the run's end record instead of before it, once the run ended well: every task ended and
   * every delete is done and counted in the result it returns. Nothing the end record says waits
   * for a close (on an object store, closing the run's file system was some 30 ms in the row
   * between the last delete and the end record, docs/benchmarks.md); the closes still end before
   * {@link #execute} returns and before the lease's release, so nothing of the run outlives it.
   * The closes of a referenced branch's run, and of a dry run, which records nothing, are done
   * when that run returns. A close that fails after a run that ended well is logged: it can
   * neither undo nor add a delete.
   */
  protected final void closeBesideTheEndRecord(AutoCloseable opened) {
    handedOver.add(opened);
  }

  /** Waits for the closes beside the end record; logs a close that failed (the run's outcome is recorded already). */
  private void awaitClosed(CompletableFuture<Void> closing) {
    try {
      DaemonThreads.join(closing);
    } catch (RuntimeException e) {
      LOG.warn("lance cleanup {}: could not close what the run opened (every delete was done): {}", describe(), e.toString());
    }
  }

  /**
   * Fails with the lease's {@link dev.lancemaintenance.storage.LeaseHeldException} when another run
   * won this run's take, whatever the run's reads met meanwhile (they are thrown away): the run
   * wrote nothing and records nothing.
   */
  private static void failIfTakeLost(TableLease held, Throwable failure) {
    try {
      held.awaitTaken();
    } catch (RuntimeException lost) {
      if (lost != failure) {
        lost.addSuppressed(failure);
      }
      throw lost;
    }
  }

  /**
   * The policy and settings as the run record keeps them: the options that decide what goes and how
   * fast, under their option names; nothing of the storage configuration (credentials live there).
   */
  private String recordedPolicy(CleanupPolicy policy) {
    return policy
        + ", mode=" + markModeName()
        + (settings.capped() ? ", max_deletes=" + settings.maxDeletes() : "")
        + ", max_concurrent_deletes=" + settings.maxConcurrentDeletes()
        + (settings.deleteRateLimit() > 0 ? ", delete_rate_limit=" + settings.deleteRateLimit() : "");
  }

  private String markModeName() {
    return markMode().name().toLowerCase(Locale.ROOT);
  }

  /** The procedure's name in run records: {@code cleanup}, or {@code remove_orphan_files}. */
  protected String actionName() {
    return orphanFilesOnly ? "remove_orphan_files" : "cleanup";
  }

  /**
   * Fails when this run lost the table's lease (it stalled past the lease's timeout and another run
   * took over): engines call it before each delete request they send from the driver, so a run that
   * lost the lease stops instead of deleting alongside the new holder.
   */
  protected void ensureLeaseHeld() {
    TableLease held = lease;
    if (held != null) {
      held.ensureHeld();
    }
  }

  private CleanupResult executeHoldingLease(DatasetCleanup requested) {
    long startNanos = System.nanoTime();
    List<DatasetCleanup> cascade = ReferencedBranches.cascadeOf(storageFactory, table, requested);
    for (DatasetCleanup branchCleanup : cascade) {
      ensureLeaseHeld();
      LOG.info("lance cleanup {}: cleaning referenced {} first, {}", table, branchCleanup.dataset(), branchCleanup.policy());
      CleanupResult branchResult = cleanDataset(branchCleanup);
      handedOver.close();
      LOG.info("lance cleanup {}: referenced {} cleaned (not in the result, as in Lance): {}",
          table, branchCleanup.dataset(), branchResult.counters());
    }
    if (!cascade.isEmpty()) {
      // Only after the branches' runs: the requested dataset's plan starts beside the lease's take,
      // and its first delete checks the lease (a stalled run that lost it stops there).
      ensureLeaseHeld();
    }
    CleanupResult own = cleanDataset(requested);
    if (cascade.isEmpty()) {
      return own;
    }
    long durationMillis = (System.nanoTime() - startNanos) / 1_000_000L;
    return own.withDuration(durationMillis);
  }

  /**
   * The dataset and policy {@link #execute()} would clean now, with "now" read from the clock and
   * the retention guard checked; deletes nothing. The storage report takes it, so that its
   * prediction is about exactly this cleanup.
   */
  public final DatasetCleanup request() {
    return requestedCleanup();
  }

  /** The cleanup of the requested dataset alone, with "now" read from the clock. */
  protected DatasetCleanup requestedCleanup() {
    Instant now = clock.instant();
    return new DatasetCleanup(dataset, checkedPolicyAt(now), now, inventory);
  }

  @Override
  public CleanupPolicy checkedPolicyAt(Instant now) {
    CleanupPolicy requested;
    try {
      requested = policy(now);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(describe() + ": " + e.getMessage(), e);
    }
    RetentionGuard.check(describe(), requested, now, allowShortRetention);
    return requested;
  }

  /** Runs the cleanup stages for one dataset of the table (main or a branch) with its policy. */
  protected abstract CleanupResult cleanDataset(DatasetCleanup cleanup);

  @Override
  public SELF inventory(String manifestUri) {
    this.inventory = Objects.requireNonNull(manifestUri, "inventory");
    return self();
  }

  @Override
  public SELF recordFiles(boolean record) {
    this.recordFiles = record;
    return self();
  }

  @Override
  public SELF alwaysList(boolean always) {
    this.alwaysList = always;
    return self();
  }

  /** Whether every run lists the managed directories ({@code listing => 'always'}). */
  protected boolean alwaysList() {
    return alwaysList;
  }

  /**
   * How long a single {@code PUT} may be in flight across a listing for a later run to skip the
   * listing (default one hour, {@code ListingSkip.PUT_MARGIN}): a run examines names instead only
   * when the oldest version it keeps is older than the last listing by more than this
   * (docs/ledger.md, section 11.3). Tests, whose versions are seconds old, give less.
   */
  public SELF putMargin(Duration margin) {
    if (margin.isNegative()) {
      throw new IllegalArgumentException("the PUT margin must not be negative: " + margin);
    }
    this.putMargin = Optional.of(margin);
    return self();
  }

  /** The {@code PUT} margin the caller gave ({@link #putMargin(Duration)}); empty for the default. */
  protected Optional<Duration> putMargin() {
    return putMargin;
  }

  /**
   * Whether a run of {@code cleanup} through {@code storage} may examine names instead of listing
   * (docs/ledger.md, section 11.2: C0's mode and dataset, C4's store and {@code listing => 'auto'}):
   * the rest is for {@code ListingChoice} and {@code ListingSkip.decide} to check. A verify run
   * lists, and compares with the names it could have examined ({@code ListingSkipVerification}).
   */
  protected boolean mayExamineNames(TableStorage storage, DatasetCleanup cleanup) {
    return storage.requestsWaitOnNetwork() && (markMode() == MarkMode.INCREMENTAL || markMode() == MarkMode.VERIFY)
        && !alwaysList && cleanup.dataset().isMain() && cleanup.inventory() == null;
  }

  @Override
  public SELF distributeAbove(int versions) {
    this.distributeAbove = DistributeAbove.checked(versions);
    return self();
  }

  /**
   * Whether an engine that distributes may clean a dataset in its own process ({@code
   * distribute_above} above 0): only then does its daily run read the key snapshot ahead instead of
   * the ledger, and its jobs leave one for the next run ({@link #cleanedInProcessBecause}).
   */
  protected boolean mayCleanInProcess() {
    return distributeAbove > 0;
  }

  /**
   * Whether an engine that distributes may, when it cleans in its own process, examine names
   * instead of listing ({@link #mayExamineNames}): it then reads the record of the last listing
   * ahead with the key snapshot and chooses beside its plan, as the local engine does; a run that
   * goes to its jobs lists.
   */
  protected boolean mayExamineNamesInProcess(TableStorage storage, DatasetCleanup cleanup) {
    return mayCleanInProcess() && mayExamineNames(storage, cleanup);
  }

  /**
   * Why an engine that distributes cleans {@code plan}'s dataset in its own process on the local
   * engine ({@link #inProcess}), for its log; empty when the run goes to its jobs. In process when
   * the run reads at most {@code distribute_above} versions' manifests: its table has at most that
   * many versions, or it is a daily incremental run that decides from the previous run's key
   * snapshot and at most that many versions are new since it. Such a run reads what changed, not the
   * table's history (docs/ledger.md, section 12), which is no work for jobs; its listing and
   * decision are the local engine's, bounded in memory as on any table it cleans.
   *
   * @param versionsNewSinceKeySnapshot the versions a run from the key snapshot read ahead would
   *     decode, empty when it cannot decide from one ({@code KeySnapshotMark.versionsToDecode});
   *     asked only for an incremental run of a table above the threshold
   */
  protected Optional<String> cleanedInProcessBecause(CleanupPlan plan, Supplier<OptionalLong> versionsNewSinceKeySnapshot) {
    return cleanedInProcessBecause(plan.tableManifestCount(), versionsNewSinceKeySnapshot);
  }

  /**
   * {@link #cleanedInProcessBecause(CleanupPlan, Supplier)} before any plan, for a table of {@code
   * versions} versions: what a fleet's worker weighs ({@code FleetCleanup}), which runs a table on
   * the local engine where this action, run in a driver, would clean it in process, from a forecast
   * of the versions new since the key snapshot instead of the snapshot's checks (the local engine's
   * run makes those, and is exact whatever the forecast said).
   */
  public final Optional<String> cleanedInProcessBecause(long versions, Supplier<OptionalLong> versionsNewSinceKeySnapshot) {
    if (DistributeAbove.inProcess(distributeAbove, versions)) {
      return Optional.of(versions + " versions, at most " + distributeAbove + " (" + DistributeAbove.NAME + ")");
    }
    if (!mayCleanInProcess() || markMode() != MarkMode.INCREMENTAL) {
      return Optional.empty();
    }
    OptionalLong newVersions = versionsNewSinceKeySnapshot.get();
    return newVersions.isPresent() && DistributeAbove.inProcess(distributeAbove, newVersions.getAsLong())
        ? Optional.of(versions + " versions, " + newVersions.getAsLong() + " of them new since the last run's key snapshot, at most "
            + distributeAbove + " (" + DistributeAbove.NAME + ")")
        : Optional.empty();
  }

  /**
   * {@code cleanup}'s dataset, planned by this action as {@code plan}, handed to the local engine to
   * clean in this process ({@code LocalCleanupAction.clean(InProcessRun, LedgerReadAhead, ListingChoice)}) as this
   * action's run: its run settings, listener and progress, the files it records and its resume.
   */
  protected final InProcessRun inProcess(DatasetCleanup cleanup, CleanupPlan plan) {
    return new InProcessRun(table, storageFactory, clock, cleanup, plan, settings, markMode(), alwaysList, putMargin,
        removedFileListener, progress, recordedFiles(cleanup.dataset()), storage -> sweepResume(storage, cleanup.dataset()));
  }

  /**
   * Where the sweep tasks of {@code dataset} record the files they delete, when the run records
   * them ({@code record_files}, not a dry run, its run record written); empty otherwise.
   */
  protected Optional<RecordedFiles> recordedFiles(DatasetRef dataset) {
    RecordedFiles run = recordedFiles;
    return run == null ? Optional.empty() : Optional.of(run.forDataset(dataset));
  }

  /**
   * How the run under way records its decision on {@code dataset} and resumes a dead run's sweep
   * of it ({@link SweepResume}); {@link SweepResume#none()} in a dry run. Engines pass it to their
   * {@link CleanupRun} (Flink: asks it on the client before building the job).
   */
  protected SweepResume sweepResume(TableStorage storage, DatasetRef dataset) {
    RunRecorder run = recorder;
    if (run == null) {
      return SweepResume.none();
    }
    Supplier<Optional<RecordedFiles>> own = () -> run.decidedFiles().map(files -> files.forDataset(dataset));
    if (!storage.requestsWaitOnNetwork()) {
      // On a local disk the start record lands before the mark, as it always did there.
      Optional<RecordedFiles> recorded = own.get();
      return new SweepResume(storage, recorded, run.deadRun().map(dead -> dead.forDataset(dataset)), run::noteResume);
    }
    // On an object store the mark needs only the dead run (looked up beside the take); the
    // recorded decision's handle, which waits for the start record, is asked at the decision.
    return new SweepResume(storage, own, run.deadRun().map(dead -> dead.forDataset(dataset)), run::noteResume);
  }

  @Override
  public SELF branch(String name) {
    this.dataset = DatasetRef.branch(name);
    return self();
  }

  @Override
  public SELF olderThan(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("older_than must not be negative: " + value);
    }
    this.olderThan = value;
    this.beforeTimestamp = null;
    return self();
  }

  @Override
  public SELF beforeTimestamp(Instant instant) {
    this.beforeTimestamp = Objects.requireNonNull(instant, "beforeTimestamp");
    return self();
  }

  @Override
  public SELF beforeVersion(long version) {
    policy.beforeVersion(version);
    return self();
  }

  @Override
  public SELF deleteUnverified(boolean value) {
    policy.deleteUnverified(value);
    return self();
  }

  @Override
  public SELF allowShortRetention(boolean value) {
    this.allowShortRetention = value;
    return self();
  }

  @Override
  public SELF retentionGuard(Duration guard) {
    if (guard.isNegative()) {
      throw new IllegalArgumentException("retention guard must not be negative: " + guard);
    }
    this.retentionGuard = guard;
    return self();
  }

  @Override
  public SELF options(Map<String, String> options) {
    return CleanupOption.applyTo(self(), CleanupOption.parseAll(catalogue(), options), clock.instant());
  }

  @Override
  public SELF orphanFilesOnly() {
    this.orphanFilesOnly = true;
    return self();
  }

  /** The options this run takes by name: cleanup's, or remove_orphan_files' once {@link #orphanFilesOnly()}. */
  protected OptionCatalogue catalogue() {
    return orphanFilesOnly ? CleanupOption.ORPHAN_FILES_CATALOGUE : CleanupOption.CATALOGUE;
  }

  @Override
  public SELF errorIfTaggedOldVersions(boolean value) {
    policy.errorIfTaggedOldVersions(value);
    return self();
  }

  @Override
  public SELF cleanReferencedBranches(boolean value) {
    policy.cleanReferencedBranches(value);
    return self();
  }

  @Override
  public SELF dryRun(boolean dryRun) {
    settings = settings.withMode(dryRun ? CleanupMode.DRY_RUN : CleanupMode.EXECUTE);
    return self();
  }

  @Override
  public SELF onRemovedFile(Consumer<CandidateFile> listener) {
    this.removedFileListener = Objects.requireNonNull(listener, "listener");
    return self();
  }

  @Override
  public SELF onProgress(CleanupProgress progress) {
    this.progress = Objects.requireNonNull(progress, "progress");
    return self();
  }

  @Override
  public SELF maxConcurrentDeletes(int value) {
    settings = settings.withMaxConcurrentDeletes(value);
    return self();
  }

  @Override
  public SELF deleteRateLimit(long filesPerSecond) {
    settings = settings.withDeleteRateLimit(filesPerSecond);
    return self();
  }

  @Override
  public SELF retainLast(int count) {
    policy.retainLast(count);
    return self();
  }

  @Override
  public SELF markMode(MarkMode mode) {
    this.markMode = Objects.requireNonNull(mode, "mode");
    return self();
  }

  @Override
  public SELF maxDeletes(long count) {
    if (count < 1) {
      throw new IllegalArgumentException("max_deletes must be > 0: " + count);
    }
    settings = settings.withMaxDeletes(count);
    return self();
  }

  @Override
  public SELF verify(boolean value) {
    this.verify = value;
    return self();
  }

  /** How this run marks: {@link MarkMode#VERIFY} when {@code verify} is on, whatever the mode. */
  protected MarkMode markMode() {
    return verify ? MarkMode.VERIFY : markMode;
  }

  /** This action as its engine's type, for the setters' return. */
  @SuppressWarnings("unchecked")
  protected final SELF self() {
    return (SELF) this;
  }

  protected TableLocation table() {
    return table;
  }

  protected TableStorageFactory storageFactory() {
    return storageFactory;
  }

  /** The dataset this action cleans: the main line, or the branch it was given. */
  protected DatasetRef dataset() {
    return dataset;
  }

  /** The table, and the branch when one is cleaned, for messages. */
  protected String describe() {
    return dataset.describe(table.toString());
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

  /** Where the engine's {@link CleanupRun} and its live task counts report. */
  protected CleanupProgress progress() {
    return progress;
  }

  /** The policy, with {@code older_than} turned into an instant from {@code now}. */
  protected CleanupPolicy policy(Instant now) {
    policy.beforeTimestamp(beforeTimestamp != null ? beforeTimestamp : now.minus(olderThan));
    policy.unverifiedGuard(allowShortRetention ? Duration.ZERO : retentionGuard);
    if (orphanFilesOnly) {
      policy.orphanSweep();
    }
    return policy.build();
  }
}
