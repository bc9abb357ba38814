package dev.lancemaintenance.cleanup.engine;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.DistributeAbove;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A dataset an engine that distributes (Spark, Flink) planned and cleans in its own process (the
 * driver, the client) on the local engine, the run reading at most {@link DistributeAbove} versions'
 * manifests ({@link BaseCleanupAction#cleanedInProcessBecause}): what the local engine takes over
 * from the engine's run, so that the run is the engine's run (its settings, listener, progress,
 * recorded files and resume, under its lease and run record) with threads instead of jobs. Built
 * only by {@link BaseCleanupAction#inProcess}, from the action's own settings.
 *
 * @param cleanup the dataset, policy and "now" the engine's action resolved
 * @param plan its plan, from the engine's one listing of {@code _versions/}
 * @param alwaysList {@code listing => 'always'}: the run lists even where it could examine names instead
 * @param putMargin the {@code PUT} margin the caller gave a run that may examine names; empty for the default
 * @param recordedFiles where the run records the files it deletes ({@code record_files}), if it does
 * @param resume how the run records its decision and resumes a dead run's sweep, for the storage it opens
 */
public record InProcessRun(
    TableLocation table, TableStorageFactory storageFactory, Clock clock, DatasetCleanup cleanup, CleanupPlan plan,
    CleanupSettings settings, MarkMode markMode, boolean alwaysList, Optional<Duration> putMargin,
    Consumer<CandidateFile> removedFileListener, CleanupProgress progress,
    Optional<RecordedFiles> recordedFiles, Function<TableStorage, SweepResume> resume) {}
