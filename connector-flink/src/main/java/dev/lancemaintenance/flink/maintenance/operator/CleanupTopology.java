package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.engine.Gate;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.storage.FileEntry;
import java.util.List;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Wires the stages of {@link CleanupRun} into one BATCH DataStream job; wiring only, every stage is
 * its own class, and the gates are {@link CleanupRun}'s, placed where their reductions land.
 *
 * <pre>
 * tasks  ─► mark ─┬─ marks ──────────────┐
 *                 ├─ summaries ─► Σ(1) ─► tagged check ─► broadcast ┐
 *                 │                      ▼                          ▼
 * listings ─► list ──── files ─► union ─► keyBy(reference key) ─► decide ─► keyBy(path) ─► release ─► sweep files ─┬─ files ─► client
 *                 │                                                   └─ unlisted ─► Σ(1) ─► check ─► broadcast ┘           └─ Σ(1) ─┐
 *                 └─ expired manifests ─► keyBy(path) ─► release if no delete failed ◄─ broadcast ┘
 *                                                          ─► sweep manifests ─► Σ(1) with files' Σ ─► client
 * summaries' Σ(1) ─► client: the manifests the mark read, and the expiry records it used (retired
 *                      there after a complete run)
 * </pre>
 *
 * <p>With {@code max_deletes}, the released files and the released manifests each pass one {@link
 * CapDeletes} (parallelism 1, after the same broadcast as their gate) on the way to their sweep; its
 * deferred counts join the file and run counters.
 *
 * <p>What orders the deletes is BATCH execution itself: an operator with a broadcast input reads all
 * of it before its keyed input, and the broadcast values are reductions that exist only once their
 * whole input has been produced. So no file is decided before every manifest was read and the
 * tagged-versions check passed, no file is deleted before every key was decided and no retained
 * version named a missing file, and no manifest is released before every file delete finished.
 */
public final class CleanupTopology {
  /** What decided files wait for: the referenced-files gate's output. */
  static final MapStateDescriptor<String, UnlistedReferences> CHECKED_STATE =
      new MapStateDescriptor<>("checked-unlisted-references", Types.STRING, CleanupTypes.UNLISTED);
  /** What expired manifests wait for: the reduced counters of the file sweep. */
  static final MapStateDescriptor<String, CleanupCounters> FILE_COUNTERS_STATE =
      new MapStateDescriptor<>("file-sweep-counters", Types.STRING, CleanupTypes.COUNTERS);
  /** What {@code max_deletes} waits for before decided files: the referenced-files gate's output. */
  static final MapStateDescriptor<String, UnlistedReferences> CAP_FILES_STATE =
      new MapStateDescriptor<>("max-deletes-after-checked-references", Types.STRING, CleanupTypes.UNLISTED);
  /** What {@code max_deletes} waits for before manifests: the reduced counters of the file sweep. */
  static final MapStateDescriptor<String, CleanupCounters> CAP_MANIFESTS_STATE =
      new MapStateDescriptor<>("max-deletes-after-file-sweep", Types.STRING, CleanupTypes.COUNTERS);

  private CleanupTopology() {}

  /**
   * Adds a cleanup of {@code plan} to {@code env} and returns what the client collects; {@code
   * markTasks} are the plan's mark tasks ({@link dev.lancemaintenance.ledger.MarkTasks}).
   */
  public static DataStream<RunOutput> build(
      StreamExecutionEnvironment env, CleanupJobSpec spec, CleanupPlan plan, List<MarkTask> markTasks) {
    int parallelism = env.getParallelism();
    String table = spec.table().toString();

    SingleOutputStreamOperator<ReferenceMark> marks =
        named(spec, "slices", env.fromData(markTasks, CleanupTypes.MARK_TASK)).setParallelism(1)
            .rebalance()
            .process(new MarkSlices(spec.table(), spec.storageFactory(), plan.facts(), plan.manifestCount()), CleanupTypes.MARK)
            .setParallelism(Math.min(parallelism, markTasks.size()));
    named(spec, "mark", marks);

    SingleOutputStreamOperator<FileEntry> files =
        named(spec, "listings", env.fromData(plan.listings(), CleanupTypes.LISTING)).setParallelism(1)
            .rebalance()
            .flatMap(new ListFiles(spec.table(), spec.storageFactory()), CleanupTypes.FILE)
            .setParallelism(Math.min(parallelism, plan.listings().size()));
    named(spec, "list", files);

    DataStream<MarkSummary> summaries = marks.getSideOutput(MarkSlices.SUMMARIES);
    SingleOutputStreamOperator<MarkSummary> summed =
        named(spec, "sum-summaries", summaries.keyBy(new Keys.Single<>(), Types.INT).reduce(new Reductions.SumSummaries()))
            .setParallelism(1);
    SingleOutputStreamOperator<DecisionContext> context =
        named(spec, "check-tagged-versions",
            summed.map(new CheckGate<>(CleanupRun.taggedVersionsGate(plan.facts())), CleanupTypes.CONTEXT))
            .setParallelism(1);
    BroadcastStream<DecisionContext> broadcastContext = context.broadcast(DecideFiles.CONTEXT_STATE);

    DataStream<DecideInput> keyed =
        named(spec, "marks-by-key", marks.map(new Adapters.MarkInput(), CleanupTypes.DECIDE_INPUT))
            .union(named(spec, "files-by-key", files.map(new Adapters.FileInput(plan.facts().dataset()), CleanupTypes.DECIDE_INPUT)));
    SingleOutputStreamOperator<CandidateFile> candidates =
        named(spec, "decide",
            keyed.keyBy(new Keys.ByReferenceKey(), Types.STRING)
                .connect(broadcastContext)
                .process(new DecideFiles(spec.decisionRecord() != null), CleanupTypes.CANDIDATE))
            .setParallelism(parallelism);
    DataStream<RunOutput> recordedDecision = spec.decisionRecord() == null
        ? null
        : named(spec, "record-decided",
                candidates.getSideOutput(DecideFiles.DECIDED)
                    .transform(spec.name("record-decided"), CleanupTypes.OUTPUT,
                        new RecordDecided(spec.table(), spec.storageFactory(), spec.decisionRecord().decided())))
            .setParallelism(parallelism);

    // A refusal needs every key decided: the reduction always has the zero to reduce, so it emits
    // once whether or not any key was missing.
    SingleOutputStreamOperator<UnlistedReferences> checked =
        named(spec, "check-referenced-files",
            named(spec, "sum-unlisted-references",
                    candidates.getSideOutput(DecideFiles.UNLISTED)
                        .union(named(spec, "no-unlisted-references",
                                env.fromData(List.of(UnlistedReferences.NONE), CleanupTypes.UNLISTED))
                            .setParallelism(1))
                        .keyBy(new Keys.Single<>(), Types.INT)
                        .reduce(new Reductions.SumUnlisted()))
                .setParallelism(1)
                .map(new CheckGate<>(CleanupRun.referencedFilesGate(plan.facts(), spec.resumed())), CleanupTypes.UNLISTED))
            .setParallelism(1);
    if (spec.decisionRecord() != null) {
      checked = named(spec, "record-plan",
              checked.keyBy(new Keys.Single<>(), Types.INT)
                  .connect(summed.broadcast(RecordPlan.MARKS_STATE))
                  .process(new RecordPlan(spec.table(), spec.storageFactory(), spec.decisionRecord()), CleanupTypes.UNLISTED))
          .setParallelism(1);
    }
    SingleOutputStreamOperator<CandidateFile> released =
        named(spec, "release-decided-files",
            candidates.keyBy(new Keys.ByPath(), Types.STRING)
                .connect(checked.broadcast(CHECKED_STATE))
                .process(new ReleaseGate<>(table, CHECKED_STATE, unlisted -> unlisted.count() == 0, CleanupStage.SWEEP),
                    CleanupTypes.CANDIDATE));

    long maxDeletes = spec.settings().maxDeletes();
    Capped filesWithin = cap(spec, "max-deletes-files", released, checked.broadcast(CAP_FILES_STATE), CAP_FILES_STATE,
        unlisted -> maxDeletes);
    SingleOutputStreamOperator<RunOutput> sweptFiles =
        candidateStage(spec, "sweep-files", CleanupStage.SWEEP, filesWithin.files(), parallelism);
    SingleOutputStreamOperator<CleanupCounters> fileTotals =
        sumCounters(spec, "sum-file-counters", sweptFiles, filesWithin.deferred());

    SingleOutputStreamOperator<CandidateFile> releasedManifests =
        named(spec, "release-expired-manifests",
            marks.getSideOutput(MarkSlices.EXPIRED_MANIFESTS)
                .keyBy(new Keys.ByPath(), Types.STRING)
                .connect(fileTotals.broadcast(FILE_COUNTERS_STATE))
                .process(
                    new ReleaseGate<>(table, FILE_COUNTERS_STATE,
                        fileCounters -> CleanupRun.releasesExpiredManifests(table, fileCounters), CleanupStage.RELEASE),
                    CleanupTypes.CANDIDATE));
    Capped manifestsWithin = cap(spec, "max-deletes-manifests", releasedManifests,
        fileTotals.broadcast(CAP_MANIFESTS_STATE), CAP_MANIFESTS_STATE,
        fileCounters -> CleanupRun.manifestBudget(maxDeletes, fileCounters));
    SingleOutputStreamOperator<RunOutput> sweptManifests =
        candidateStage(spec, "sweep-manifests", CleanupStage.RELEASE, manifestsWithin.files(), parallelism);

    SingleOutputStreamOperator<CleanupCounters> manifestCounters =
        named(spec, "manifest-counters", sweptManifests.flatMap(new Adapters.CountersOnly(), CleanupTypes.COUNTERS));
    DataStream<CleanupCounters> runCounters = fileTotals.union(manifestCounters);
    if (manifestsWithin.deferred() != null) {
      runCounters = runCounters.union(manifestsWithin.deferred());
    }
    SingleOutputStreamOperator<RunOutput> total =
        named(spec, "run-counters",
                named(spec, "sum-run-counters",
                        runCounters
                            .keyBy(new Keys.Single<>(), Types.INT)
                            .reduce(new Reductions.SumCounters()))
                    .setParallelism(1)
                    .map(new RecordDuration(spec.startMillis()), CleanupTypes.OUTPUT))
            .setParallelism(1);
    // The client reports the manifests read and retires the expiry records the summary names when
    // the run's counters allow it.
    SingleOutputStreamOperator<RunOutput> marked =
        named(spec, "mark-outcome", summed.map(new Adapters.MarkOutcome(), CleanupTypes.OUTPUT)).setParallelism(1);
    DataStream<RunOutput> outputs = named(spec, "removed-files", sweptFiles.filter(new Adapters.FilesOnly()))
        .union(named(spec, "removed-manifests", sweptManifests.filter(new Adapters.FilesOnly())), total, marked);
    // The decision's record emits nothing; a stream that reaches no sink would not run.
    return recordedDecision == null ? outputs : outputs.union(recordedDecision);
  }

  private static SingleOutputStreamOperator<RunOutput> candidateStage(
      CleanupJobSpec spec, String stage, CleanupStage cleanupStage, DataStream<CandidateFile> input, int parallelism) {
    if (spec.settings().mode() == CleanupMode.DRY_RUN) {
      return named(spec, stage,
              input.transform(stage, CleanupTypes.OUTPUT, new CountCandidates(spec.report(), cleanupStage)))
          .setParallelism(parallelism);
    }
    SweepFiles sweep =
        new SweepFiles(spec.table(), spec.storageFactory(), spec.settings().deleteRateLimit(), spec.report(),
            spec.recordedFiles(), cleanupStage);
    // One request in flight per subtask: the parallelism is the concurrency cap.
    return named(spec, stage, input.transform(stage, CleanupTypes.OUTPUT, sweep))
        .setParallelism(Math.min(parallelism, spec.settings().maxConcurrentDeletes()));
  }

  /** Files on their way to a sweep, and the files {@code max_deletes} deferred (null when uncapped). */
  private record Capped(DataStream<CandidateFile> files, DataStream<CleanupCounters> deferred) {}

  /**
   * With {@code max_deletes}, passes {@code files} through {@link CapDeletes} (parallelism 1) with
   * the budget {@code budget} computes from the reduced value on {@code after}; without, as they are.
   */
  private static <S> Capped cap(CleanupJobSpec spec, String stage, DataStream<CandidateFile> files,
      BroadcastStream<S> after, MapStateDescriptor<String, S> state, Gate<S, Long> budget) {
    if (!spec.settings().capped()) {
      return new Capped(files, null);
    }
    SingleOutputStreamOperator<CandidateFile> within =
        named(spec, stage,
                files.connect(after).process(new CapDeletes<>(spec.table().toString(), state, budget), CleanupTypes.CANDIDATE))
            .setParallelism(1);
    return new Capped(within, within.getSideOutput(CapDeletes.DEFERRED));
  }

  private static SingleOutputStreamOperator<CleanupCounters> sumCounters(
      CleanupJobSpec spec, String stage, DataStream<RunOutput> outputs, DataStream<CleanupCounters> deferred) {
    DataStream<CleanupCounters> counters =
        named(spec, stage + "-per-subtask", outputs.flatMap(new Adapters.CountersOnly(), CleanupTypes.COUNTERS));
    if (deferred != null) {
      counters = counters.union(deferred);
    }
    return named(spec, stage, counters.keyBy(new Keys.Single<>(), Types.INT).reduce(new Reductions.SumCounters()))
        .setParallelism(1);
  }

  private static <T> SingleOutputStreamOperator<T> named(
      CleanupJobSpec spec, String stage, SingleOutputStreamOperator<T> operator) {
    return operator.name(spec.name(stage)).uid(spec.uid(stage));
  }
}
