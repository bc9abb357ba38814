package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.engine.InProcessRun;
import dev.lancemaintenance.cleanup.engine.RunCloses;
import dev.lancemaintenance.cleanup.engine.SweepResume;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.ledger.ExpiryRecords;
import dev.lancemaintenance.ledger.KeySnapshotAnswers;
import dev.lancemaintenance.ledger.KeySnapshotMark;
import dev.lancemaintenance.ledger.LedgerReadAhead;
import dev.lancemaintenance.ledger.ListingChoice;
import dev.lancemaintenance.ledger.ListingSkip;
import dev.lancemaintenance.ledger.ListingSkipVerification;
import dev.lancemaintenance.ledger.MarkTasks;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reference engine: runs the {@link CleanupRun} stages on a thread pool in one JVM.
 *
 * <p>Mark tasks (one per slice of manifests) and list tasks (one per managed directory, started
 * with the mark, since a listing needs no mark: {@link SpilledListing}) run in parallel and spill their records,
 * hash-partitioned by reference key (a run that decides from the key snapshot lists once the
 * snapshot's answers exist, and spills only the names they do not answer {@code KEPT}): in memory up to {@link #inMemorySpillRecords(long)} records, to
 * local disk above. A list task gives names alone where the store can (a
 * local directory with no subdirectory: no {@code stat} per file), and a decide task reads a file's
 * size and time only when the decision turns on them ({@link DecideByPath}). Decide then runs one
 * task per partition (or per run of partitions, when every mark and listed file
 * is in memory: {@link DecideTasks}), every decide before the first sweep, so that a retained
 * version naming a missing file refuses the run before any delete. The sweep reads the decided
 * files on the run's thread and deletes them in batches on the pool ({@link PooledSweep}). Expired manifests are deleted
 * last, and only when every other delete of the run succeeded ({@link CleanupRun}). A run that may
 * examine names instead of listing does so through {@link ExamineInsteadOfListing}.
 *
 * <p>Threads: mark, list and delete requests run on a pool of {@link #parallelism} threads ({@link RunPool}), by
 * default the store's {@link TableStorage#suggestedConcurrency()} (a few on local disk, 64 on
 * object stores, where each request mostly waits for the network); decide tasks, pure CPU and
 * memory, run at most {@link DecideTasks#AT_ONCE} at a time whatever the pool size. On a local disk, in
 * {@code incremental} mode, each directory the listing walks is walked on a thread of its own,
 * outside the pool, from the start of the mark ({@link ListingWalks}).
 *
 * <p>Memory, at most {@link #parallelism} mark tasks at a time: the plan (one manifest location per
 * version of the table and of each branch, plus tags and fork points); per mark task, one decoded
 * manifest and the distinct references and expired manifests of its slice ({@link #sliceSize}
 * manifests); per decide task, the distinct reference keys of one partition (about the table's
 * references / {@link #partitions}; listed files stream past them from the spill); per sweep, the
 * batch being filled and those in flight ({@link PooledSweep}); the spilled records up to {@link
 * #inMemorySpillRecords(long)} (default 100,000), and a 64 KiB buffer per
 * spill file that went to disk (2 x partitions + 1 files at most); on a local disk in {@code
 * incremental} mode, per directory walked, the names its walk found and its task has not yet taken, up to {@link
 * #walkAheadBytes(long)} (default 32 MiB). Above that bound the spill on
 * local disk grows with references plus listed files; nothing in memory holds every path.
 */
public final class LocalCleanupAction extends BaseCleanupAction<LocalCleanupAction> {
  private static final Logger LOG = LoggerFactory.getLogger(LocalCleanupAction.class);

  private final TableStorageFactory storageFactory;

  /** The engine's own options: threads, slices, spill, walk-ahead. */
  private final LocalRunOptions options = new LocalRunOptions();

  public LocalCleanupAction(TableLocation table, TableStorageFactory storageFactory, Clock clock) {
    super(table, storageFactory, clock, "local");
    this.storageFactory = storageFactory;
  }

  /**
   * Threads for reading and decoding manifests, listing and deleting (default: the store's
   * suggested concurrency); decide tasks use at most this many too.
   */
  public LocalCleanupAction parallelism(int threads) {
    options.parallelism(threads);
    return this;
  }

  /** Hash partitions of the spill; more partitions, less memory per decide task. */
  public LocalCleanupAction partitions(int count) {
    options.partitions(count);
    return this;
  }

  /**
   * Manifests per mark task. By default up to {@value CleanupPlanner#DEFAULT_SLICE_SIZE}, fewer when
   * that would leave threads without a slice.
   */
  public LocalCleanupAction sliceSize(int manifests) {
    options.sliceSize(manifests);
    return this;
  }

  /** The system property that moves every local run's spill; default: {@code java.io.tmpdir}. */
  public static final String SPILL_DIR_PROPERTY = "lance.maintenance.spill.dir";

  /**
   * Spilled records (marks, listed and decided files) a run holds in memory, across its partitions,
   * before its spills go to disk (default 100,000); 0 spills every
   * record to disk. What the run decides is the same either way.
   */
  public LocalCleanupAction inMemorySpillRecords(long records) {
    options.inMemorySpillRecords(records);
    return this;
  }

  /**
   * Bytes of listed names the walk of one directory holds on a local disk while the mark runs
   * (default 32 MiB, {@link ListingWalks#DEFAULT_BOUND_BYTES}; at least one name): above it the walk
   * waits until its names are taken. What the run decides is the same whatever the bound.
   */
  public LocalCleanupAction walkAheadBytes(long bytes) {
    options.walkAheadBytes(bytes);
    return this;
  }

  /**
   * Where the spill files go (default: the {@value #SPILL_DIR_PROPERTY} system property, else
   * java.io.tmpdir). They hold the table's paths; a run removes the spills of dead runs here first.
   */
  public LocalCleanupAction spillDirectory(Path directory) {
    options.spillDirectory(directory);
    return this;
  }

  /**
   * Cleans one dataset as another engine's action resolved and planned it ({@code run}: dataset,
   * policy, "now" and the listing of its versions fixed), with that action's run settings and this
   * engine's own slices, in this process: how an engine that distributes cleans a table of at most
   * {@code distribute_above} versions in its driver or client, listing {@code _versions/} once. It
   * records the files it deletes where the other engine's run records them ({@code record_files}),
   * its decision and any resume as that run's resume gives them for the storage this run opens, and
   * uses the ledger that run started reading before its plan ({@code ledger}, which the caller
   * closes): started with {@link LedgerReadAhead#startUnlessKeySnapshot}, a daily run decides from
   * the key snapshot, as the local engine's own does; {@link LedgerReadAhead#none()} reads the ledger
   * here, after the plan. A run that may examine names instead of listing ({@code listing => 'auto'}
   * on an object store) chooses with {@code choice}, which that run started beside its plan
   * ({@link ListingChoice#of}, the caller closes it) and gave its plan's listing ({@link
   * #readsEarly}); {@link ListingChoice#lists()} lists.
   */
  public static CleanupResult clean(InProcessRun run, LedgerReadAhead ledger, ListingChoice choice) {
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(choice, "choice");
    LocalCleanupAction local = new LocalCleanupAction(run.table(), run.storageFactory(), run.clock());
    local.dryRun(run.settings().mode() == CleanupMode.DRY_RUN)
        .markMode(run.markMode())
        .alwaysList(run.alwaysList())
        .maxConcurrentDeletes(run.settings().maxConcurrentDeletes())
        .deleteRateLimit(run.settings().deleteRateLimit())
        .maxDeletes(run.settings().maxDeletes())
        .onRemovedFile(run.removedFileListener())
        .onProgress(run.progress());
    run.putMargin().ifPresent(local::putMargin);
    // Closing the ledger and the choice here as well only waits for their reads once more.
    return local.cleanDataset(run.cleanup(), Optional.of(run.plan()), run.recordedFiles(), run.resume(),
        storage -> ledger, (storage, ahead) -> choice, RunCloses::close);
  }

  /**
   * What a plan's listing of {@code _versions/} is given ({@code CleanupPlanner.listingSeenBy}), so
   * that the manifests a run from the key snapshot decodes ({@link LedgerReadAhead#newManifests}) and
   * those of the versions a run without a listing expires ({@link ListingChoice#expiringManifests})
   * are read while it lists.
   */
  public static Consumer<FileEntry> readsEarly(LedgerReadAhead ledger, ListingChoice choice) {
    return listed -> {
      ledger.newManifests().listed(listed);
      choice.expiringManifests().listed(listed);
    };
  }

  /** Each run opens its storage through {@link #runStorage}. */
  @Override
  protected boolean opensRunStorage() {
    return true;
  }

  @Override
  protected CleanupResult cleanDataset(DatasetCleanup cleanup) {
    return cleanDataset(cleanup, Optional.empty(), recordedFiles(cleanup.dataset()),
        storage -> sweepResume(storage, cleanup.dataset()),
        // The daily run decides from the key snapshot and never reads the ledger ahead for it; one
        // that may examine names instead of listing reads the record of the last listing beside it.
        storage -> LedgerReadAhead.startUnlessKeySnapshot(storage, cleanup.dataset(), markMode(),
            Clock.fixed(cleanup.now(), ZoneOffset.UTC), mayExamineNames(storage, cleanup)),
        (storage, ledger) -> ListingChoice.of(mayExamineNames(storage, cleanup), storage, cleanup, ledger, putMargin(),
            markMode() == MarkMode.VERIFY),
        this::closeBesideTheEndRecord);
  }

  /**
   * @param choiceOn whether the run lists or examines names instead, chosen beside the plan from the
   *     ledger read ahead ({@link ListingChoice#of}), or beside another engine's plan
   * @param closeWhenDone given what the run opened once it ended well, every delete done and
   *     counted: closed beside the run's end record ({@link #closeBesideTheEndRecord}), or at once
   */
  private CleanupResult cleanDataset(
      DatasetCleanup cleanup, Optional<CleanupPlan> plannedElsewhere, Optional<RecordedFiles> recordedFiles,
      Function<TableStorage, SweepResume> resumeOn, Function<TableStorage, LedgerReadAhead> ledgerOn,
      BiFunction<TableStorage, LedgerReadAhead, ListingChoice> choiceOn, Consumer<RunCloses> closeWhenDone) {
    long startNanos = System.nanoTime();
    Clock now = Clock.fixed(cleanup.now(), ZoneOffset.UTC);
    // Closed in reverse order (RunCloses: beside the end record after a run that ended well, here
    // after one that failed; before execute() returns either way): the pool stops (and its running
    // tasks end) before the spill they read and the walks they take over go away, and those before
    // the storage they list and delete through closes, so no request or delete outlives execute().
    // The ledger is read and folded beside the plan's listing of _versions/ (LedgerReadAhead says
    // why that is exact), and a read still under way ends before the storage it reads through closes. The listing's walks start
    // ahead of its tasks (ListingWalks says why that is exact): on an object store the dataset's
    // own directories beside the plan (their first pages need nothing it finds); on a local disk,
    // in an incremental run, every directory walked beside the mark, into a bounded buffer, and
    // settled once the answers exist (Run.mark).
    RunCloses opened = new RunCloses();
    try {
      TableStorage storage = opened.add(runStorage());
      LedgerReadAhead ledger = opened.add(ledgerOn.apply(storage));
      boolean walksBesideThePlan = storage.requestsWaitOnNetwork() && plannedElsewhere.isEmpty() && cleanup.inventory() == null;
      // A run that may examine names instead of listing chooses beside the plan, from the store's
      // horizon (asked before any walk of a managed directory: docs/ledger.md, section 11.3), the
      // record of the last listing and the key snapshot read ahead; its walks start once it chose
      // to list, and the expiring versions' manifests are read as the plan lists them once it chose
      // to examine (ListingChoice says why that is exact). Any other run walks beside the plan at once.
      ListingChoice choice = opened.add(choiceOn.apply(storage, ledger));
      ListingWalks walks = opened.add(walksBesideThePlan
          ? ListingWalks.startedBesideThePlan(storage, cleanup.dataset(), choice.walks())
          : ListingWalks.noneStarted(storage));
      Spills spills = opened.add(options.newSpills());
      RunPool pool = opened.add(new RunPool(options.threadsFor(storage)));
      CleanupPlanner planner = options.plannerFor(storage);
      CleanupPlan plan = plannedElsewhere.isPresent()
          ? planner.reslice(plannedElsewhere.get())
          : CleanupRun.plan(storage, planner.listingSeenBy(readsEarly(ledger, choice)), cleanup);
      SweepResume resume = resumeOn.apply(storage);
      CleanupRun run = new CleanupRun(table().toString(), plan,
          new Run(storage, ledger, walks, spills, pool, now, recordedFiles,
              resume::decidedFiles, choice),
          settings().maxDeletes(), progress(), resume);
      CleanupCounters counters = run.execute();
      long durationMillis = (System.nanoTime() - startNanos) / 1_000_000L;
      CleanupResult result = run.result(settings().mode(), markMode(), counters, durationMillis);
      // Every task ended (each was awaited) and every delete is done and counted in the result.
      closeWhenDone.accept(opened);
      return result;
    } catch (RuntimeException | Error e) {
      opened.closeAfter(e);
      throw e;
    }
  }

  /** One execution's stages over shared storage, spill and pool: how the local engine distributes them. */
  private final class Run implements CleanupRun.Distribution {
    private final TableStorage storage;
    private final LedgerReadAhead ledger;
    /** The walks started ahead of the listing tasks (beside the plan or the mark), which they take over. */
    private final ListingWalks walks;
    private final Spills spills;
    private final RunPool pool;
    private final Clock now;
    private final Semaphore decideSlots = new Semaphore(DecideTasks.AT_ONCE);
    /**
     * Where each decide task records what it decided; empty when the run does not record its
     * decision. Asked at the decision: it may wait for the run's start record, which the mark does
     * not need ({@link SweepResume#decidedFiles}).
     */
    private final Supplier<Optional<RecordedFiles>> decidedFiles;
    /** The list stage's tasks, started with the mark. */
    private final SpilledListing listing;
    /** The partitions each decide task decides, in order; set by {@link #decide}. */
    private List<List<Integer>> taskPartitions;
    /** A verify run's comparison with the names it could have examined; set by {@link #decide} when there is one. */
    private volatile ListingSkipVerification verification;
    /** The decided parts being ended ({@link #decideBounded}), awaited before the first delete. */
    private final List<Future<Void>> partsEnding = new CopyOnWriteArrayList<>();
    /** The mark from the key snapshot, when the run decides from it; null when it marked. */
    private volatile KeySnapshotMark.Outcome markedFromSnapshot;
    /**
     * Whether the run lists or may examine names instead ({@link ListingSkip}), chosen beside the
     * plan (the choice's {@link ListingChoice#listsBecause}).
     */
    private final ListingChoice choice;
    /** The run's examining of names instead of listing, its verify and the record it leaves. */
    private final ExamineInsteadOfListing examine;
    private final PooledSweep sweep;

    Run(TableStorage storage, LedgerReadAhead ledger, ListingWalks walks, Spills spills, RunPool pool,
        Clock now, Optional<RecordedFiles> recordedFiles, Supplier<Optional<RecordedFiles>> decidedFiles,
        ListingChoice choice) {
      this.choice = choice;
      this.storage = storage;
      this.ledger = ledger;
      this.walks = walks;
      this.spills = spills;
      this.pool = pool;
      this.now = now;
      this.sweep = new PooledSweep(storage, pool, settings(), progress(), removedFileListener(), recordedFiles,
          LocalCleanupAction.this::ensureLeaseHeld);
      this.decidedFiles = decidedFiles;
      this.listing = new SpilledListing(table(), walks, spills, pool, progress(), this::snapshotAnswers);
      this.examine = new ExamineInsteadOfListing(table(), storage, ledger, choice,
          putMargin().orElse(ListingSkip.PUT_MARGIN), pool);
    }

    @Override
    public MarkSummary mark(CleanupPlan plan) {
      DatasetRef dataset = plan.facts().dataset();
      // The listing reads only the managed directories and decides nothing, so it may run beside
      // any mark; the decision joins the two, after both ended and the gate passed. On the key
      // snapshot's path a listing task that starts once the answers exist settles every name they
      // answer KEPT itself and spills only the rest (SpilledListing): on a local disk, where the walk costs
      // CPU and the mark's few new manifests are read at once, the listing tasks wait for the
      // answers (on huge-steady 9 names in 10 no longer go to disk and back), but the walks of the
      // directories start now, each on a thread of its own into a bounded buffer (ListingWalks), and
      // the listing tasks settle what they walked once the answers exist: the walk needs no answer,
      // only the settling does, and a buffered name is settled or spilled exactly as a name walked
      // later (docs/ledger.md 12.5). On an object store the listing's
      // pages and the mark's new manifests each wait on the network (~150 ms of manifests at +20 ms
      // a request), so the listing starts first and its tasks spill what they list while no answer
      // exists; the decision looks those names up (exact either way: each task reads the answers
      // once, at its start, and either settles by them or spills every name, docs/ledger.md 12.5).
      // Unless the choice beside the plan found that a record beside the ledger may spare this run
      // its listing: then the mark decides whether it lists (ExamineInsteadOfListing), and a run that does
      // lists after the mark.
      Optional<String> listsBecause = choice.listsBecause();
      // A verify run lists whatever the choice, and compares its listing with the names it would
      // have examined instead when the choice allowed that (ExamineInsteadOfListing).
      boolean verifies = markMode() == MarkMode.VERIFY;
      boolean mayExamineInstead = listsBecause.isEmpty() && !verifies;
      if (choice.considered() && listsBecause.isPresent()) {
        LOG.info("lance cleanup {} [{}]: listed: {}", table(), CleanupStage.LIST.label(), listsBecause.get());
      }
      if (storage.requestsWaitOnNetwork()) {
        if (!mayExamineInstead) {
          listing.startUnlessStarted(plan.listings(), dataset);
        }
      } else if (markMode() == MarkMode.INCREMENTAL) {
        // Only a run that may decide from the key snapshot has listing tasks that wait for the
        // mark; any other lists beside its mark from the start, as before.
        walks.startBesideTheMark(plan.listings(), options.walkAheadBytes());
      }
      Optional<KeySnapshotMark.Outcome> fromSnapshot = KeySnapshotMark.mark(storage, plan, markMode(), decoder(plan), ledger);
      if (fromSnapshot.isPresent()) {
        // No marks: each listed key is asked the snapshot's answers instead.
        markedFromSnapshot = fromSnapshot.get();
        if (mayExamineInstead) {
          examine.examineOrList(plan, fromSnapshot.get(), listing);
        }
        listing.startUnlessStarted(plan.listings(), dataset);
        fromSnapshot.get().expiredManifests().forEach(spills::addExpiredManifest);
        fromSnapshot.get().leaveNext(storage, settings().mode(), now);
        progress().manifestsRead(fromSnapshot.get().summary().manifestsRead());
        return fromSnapshot.get().summary();
      }
      if (mayExamineInstead) {
        LOG.info("lance cleanup {} [{}]: listed: the run does not decide from the key snapshot", table(),
            CleanupStage.LIST.label());
      }
      listing.startUnlessStarted(plan.listings(), dataset);
      // A verify run's answers come before its ledger commit and next snapshot start: the names to
      // examine are chosen from the record and the snapshot the run found, not one it writes.
      List<MarkTask> tasks = MarkTasks.of(storage, plan, markMode(), settings().mode(), now, decoder(plan), ledger,
          true, verified -> examine.snapshotVerified(plan, verified,
              verifies && choice.considered() && listsBecause.isEmpty()));
      return pool.runAll(tasks, task -> mark(plan, task), MarkSummary::plus, MarkSummary.EMPTY);
    }

    /** Decodes a daily run's new manifests on the pool, with the reads begun as the plan listed them. */
    private PoolDecoder decoder(CleanupPlan plan) {
      return PoolDecoder.ofNewManifests(pool, storage, plan, ledger);
    }

    /** Waits for the listing {@link #mark} started. */
    @Override
    public OptionalLong list(CleanupPlan plan) {
      return listing.awaitListed();
    }

    @Override
    public UnlistedReferences decide(CleanupPlan plan, DecisionContext context) {
      taskPartitions = DecideTasks.partitionsPerTask(spills.partitions(), spills.marksAndFilesInMemory(),
          Runtime.getRuntime().availableProcessors());
      // A verify run's other side, decided first so that each listed name can say it was listed.
      verification = examine.verification(context);
      List<Integer> tasks = IntStream.range(0, taskPartitions.size()).boxed().toList();
      UnlistedReferences unlisted = pool.runAll(tasks, task -> decideBounded(task, taskPartitions.get(task), context),
          UnlistedReferences::plus, UnlistedReferences.NONE);
      if (verification != null) {
        examine.verifyAgainstTheNamesExamined(verification, spills, taskPartitions);
      }
      if (markedFromSnapshot != null && !examine.examinedNames()) {
        // The referenced-files gate as a count; the keys it misses named only when some are. Not
        // on a run that examined names instead of listing: nothing there to count against
        // (docs/cleanup-semantics.md, section 22, "What a run without a listing does not check").
        unlisted = unlisted.plus(markedFromSnapshot.unlisted(decoder(plan)));
      }
      return unlisted;
    }

    @Override
    public int decideTasks() {
      if (taskPartitions == null) {
        throw new IllegalStateException("decide tasks asked before the decision");
      }
      return taskPartitions.size();
    }

    /**
     * Decides the task's partitions once a decide slot is free (the pool may be sized for I/O, not
     * memory), then ends its recorded part on the pool, outside the slot and beside everything else. A part
     * on an object store is uploaded when it ends: a request that needs none of the memory the
     * slot bounds (its lines were written as the partition was decided), so inside the slot a small
     * decision's parts went to the store a few at a time, a wave of round trips each; now they go
     * at once, and beside the run's plan, which {@link CleanupRun#decide} records once this stage
     * returned. Exact as before: a part ends whole only once its whole partition was decided, and
     * no file is deleted before every part ended ({@link #awaitRecordedDecision}). A run that dies
     * between the plan and its last part leaves a plan with a part that is not whole (on S3 none at
     * all), which a resume reads as "did not finish deciding" and starts over
     * (docs/ledger.md, section 9).
     */
    private UnlistedReferences decideBounded(int task, List<Integer> partitions, DecisionContext context) {
      RecordedFiles.Part record = decidedFiles.get().map(files -> files.decidePart(storage, task, 0))
          .orElseGet(RecordedFiles.Part::none);
      UnlistedReferences unlisted = UnlistedReferences.NONE;
      decideSlots.acquireUninterruptibly();
      try {
        // One partition after another: one partition's marks in memory at a time, as in a task of its own.
        for (int partition : partitions) {
          unlisted = unlisted.plus(decide(partition, context, record));
        }
      } catch (RuntimeException | Error e) {
        record.close();
        throw e;
      } finally {
        decideSlots.release();
      }
      partsEnding.add(pool.submit(() -> {
        record.finish();
        return null;
      }));
      return unlisted;
    }

    /** Waits until every decided part ended: the decision is recorded before the first delete. */
    private void awaitRecordedDecision() {
      RunPool.awaitAll(partsEnding, (a, b) -> null, null);
    }

    /**
     * Co-groups one partition's marks and listed files by key: spills what goes, records every
     * listed file it decided in {@code record}, and reports the keys retained versions need that no
     * listed file carries.
     */
    private UnlistedReferences decide(int partition, DecisionContext context, RecordedFiles.Part record) {
      // One entry per key, carrying whether a listed file had it: one lookup per mark and per
      // listed file (a partition of a large table holds tens of thousands of each).
      Map<String, KeyMark> marks = new HashMap<>();
      spills.marks(partition).forEach(mark -> marks.computeIfAbsent(mark.key(), any -> new KeyMark()).merge(mark.state()));
      DecideByPath decide = new DecideByPath(context);
      KeySnapshotAnswers answers = snapshotAnswers();
      KeySnapshotAnswers.Listing fromSnapshot = answers == null ? null : answers.listing();
      ListingSkipVerification verifying = verification;
      spills.files(partition).forEach(file -> {
        if (verifying != null) {
          verifying.listed(file.path());
        }
        Optional<MarkState> state = Optional.empty();
        if (fromSnapshot != null) {
          state = fromSnapshot.markOfListed(context.keyOf(file.path()));
        } else {
          KeyMark mark = marks.get(context.keyOf(file.path()));
          if (mark != null) {
            mark.listed = true;
            state = Optional.of(mark.state);
          }
        }
        decide.decideAndRecord(file, state, storage::withAttributes, record::addListed, examine::keptUnreferenced)
            .ifPresent(decided -> {
              spills.decided(partition).append(decided);
              progress().candidates(1);
            });
      });
      UnlistedReferences unlisted = UnlistedReferences.NONE;
      for (Map.Entry<String, KeyMark> mark : marks.entrySet()) {
        if (!mark.getValue().listed) {
          unlisted = unlisted.plus(decide.unlisted(mark.getKey(), mark.getValue().state));
        }
      }
      return unlisted;
    }

    /** A key's marks merged ("kept wins", {@link MarkState#merge}), and whether a listed file had the key. */
    private static final class KeyMark {
      private MarkState state;
      private boolean listed;

      void merge(MarkState other) {
        state = state == null ? other : state.merge(other);
      }
    }

    @Override
    public CleanupCounters sweepDecided(long budget) {
      awaitRecordedDecision();
      // One sweep for all partitions, so that delete requests carry full batches on object stores.
      // The decided files are read here and their batches deleted on the pool, up to
      // max_concurrent_deletes at a time, as the release's are: swept by the decide tasks, a decision
      // held in memory (one task) sent its batches one after another (huge-steady's daily run on the
      // store: 33 bulk deletes in a row, 1.3-1.7 s of an 11 s run).
      return sweep.sweep(CleanupStage.SWEEP, budget, each -> {
        for (int partition = 0; partition < spills.partitions(); partition++) {
          spills.decided(partition).forEach(each);
        }
      });
    }

    @Override
    public CleanupCounters sweepExpiredManifests(long budget) {
      // The expired manifests come from one spill read on this thread; their batches are deleted
      // on the pool, as the sweep's are, so that a release of 100,000 versions is not one delete
      // at a time.
      CleanupCounters released = sweep.sweep(CleanupStage.RELEASE, budget, each ->
          spills.expiredManifests().forEach(manifest -> {
            progress().candidates(1);
            each.accept(manifest);
          }));
      examine.leaveUnlistedRecord(markedFromSnapshot, settings().mode());
      return released;
    }

    @Override
    public void retireExpiryRecords(CleanupPlan plan, Set<String> records) {
      ExpiryRecords.retireUsed(settings().mode(), LocalCleanupAction.this::ensureLeaseHeld, storageFactory, table(),
          plan.facts().dataset(), records);
    }

    private MarkSummary mark(CleanupPlan plan, MarkTask task) {
      RunPool.stopIfInterrupted();
      MarkResult result = task.mark(storage, plan.facts());
      result.marks().forEach(spills::addMark);
      result.expiredManifests().forEach(spills::addExpiredManifest);
      progress().manifestsRead(result.summary().manifestsRead());
      return result.summary();
    }

    /** Each listed key's mark when the mark stage decided from the key snapshot; null when it marked. */
    private KeySnapshotAnswers snapshotAnswers() {
      KeySnapshotMark.Outcome marked = markedFromSnapshot;
      return marked == null ? null : marked.answers();
    }
  }
}
