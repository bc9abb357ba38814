package dev.lancemaintenance.cleanup;

import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * Removes old versions of a Lance table and the files only they referenced, with the semantics of
 * Lance's {@code cleanup_with_policy}. Each engine (local, Spark, Flink) implements it by running
 * the same stages in different places.
 *
 * <p>Setters validate their argument and return this action; {@link #execute()} runs once.
 */
public interface CleanupAction {

  /**
   * Remove versions whose manifest timestamp is older than now minus {@code olderThan} (default 7
   * days, as LanceDB). Too short a window can remove a version a long-running reader or a concurrent
   * writer still uses.
   */
  CleanupAction olderThan(Duration olderThan);

  /** Remove versions whose manifest timestamp is strictly before {@code instant}. */
  CleanupAction beforeTimestamp(Instant instant);

  /** Remove only versions strictly below {@code version}. */
  CleanupAction beforeVersion(long version);

  /**
   * Also delete unreferenced files younger than 7 days. An in-flight write's files are unreferenced
   * until it commits, so this races concurrent writers: files younger than the retention guard (1
   * day) are still kept, and a window shorter than the guard is refused, unless {@link
   * #allowShortRetention}. Files newer than the earliest retained version are kept regardless.
   */
  CleanupAction deleteUnverified(boolean deleteUnverified);

  /**
   * Lifts the retention guard of {@link #deleteUnverified}: a window shorter than the guard runs,
   * and unreferenced files younger than it go (Lance's own behaviour). Only when nothing writes to
   * the table.
   */
  CleanupAction allowShortRetention(boolean allowShortRetention);

  /** The retention guard of {@link #deleteUnverified} (default 1 day). */
  CleanupAction retentionGuard(Duration guard);

  /**
   * Sets options by their SQL names ({@code older_than}, {@code dry_run}, ...; see {@link
   * CleanupOption}); an unknown or NULL-valued name is an error naming it, before anything is read.
   */
  CleanupAction options(java.util.Map<String, String> options);

  /** Refuse the run when a tagged version would be removed (default true, as Lance). */
  CleanupAction errorIfTaggedOldVersions(boolean errorIfTaggedOldVersions);

  /**
   * Clean branch {@code name} of the table (its own versions and files under {@code tree/<name>})
   * instead of the main table, as Lance cleans a checkout of the branch. Files the branch reads
   * from its parent are never touched.
   */
  CleanupAction branch(String name);

  /**
   * Also clean referenced branches, as Lance's option of the same name: the descendants whose fork
   * point this run removes are first cleaned with the policy of their own {@code
   * lance.auto_cleanup.*} config (not at all without {@code lance.auto_cleanup.interval}). As in
   * Lance 7, the result counts only this dataset's removals; the branches' are logged.
   */
  CleanupAction cleanReferencedBranches(boolean cleanReferencedBranches);

  /** Decide everything and report the files that would go, deleting nothing. */
  CleanupAction dryRun(boolean dryRun);

  /** Receives every file the run removes (or, in a dry run, would remove), as it is decided. */
  CleanupAction onRemovedFile(Consumer<CandidateFile> listener);

  /**
   * Feeds this run's progress to {@code progress}, which the caller reads from any thread while the
   * run goes on (the CLI draws its bar from it).
   */
  CleanupAction onProgress(CleanupProgress progress);

  /** At most this many delete requests in flight at once. */
  CleanupAction maxConcurrentDeletes(int maxConcurrentDeletes);

  /** At most this many file deletes per second across the whole run (0 = unlimited). */
  CleanupAction deleteRateLimit(long filesPerSecond);

  /**
   * Keep the {@code count} newest versions whatever their age (at least 1), as Iceberg's {@code
   * retain_last}: a version goes only when it is also outside them, so this only ever keeps more.
   * Tagged versions count among them; a branch cleanup counts the branch's own versions.
   */
  CleanupAction retainLast(int count);

  /**
   * Stop after {@code count} file deletes (at least 1), leaving the rest for the next run, as
   * Paimon's {@code max_deletes}. The manifests of expired versions go only in a run that deleted
   * every other file it decided: a manifest stays while a file it names is still there, so that the
   * next run sees that file as verified. The result's {@code deferred_deletes} counts what was left.
   */
  CleanupAction maxDeletes(long count);

  /**
   * How retained versions are marked (default {@link MarkMode#FULL}): {@link MarkMode#INCREMENTAL}
   * reads only the manifests the maintenance ledger cannot answer for and records what it learnt;
   * {@link MarkMode#VERIFY} marks both ways and refuses the run on any difference. The same files go
   * in every mode; branches that read the dataset are always marked in full.
   */
  CleanupAction markMode(MarkMode mode);

  /** {@code verify => true}: mark both ways and refuse the run on any difference ({@link MarkMode#VERIFY}). */
  CleanupAction verify(boolean verify);

  /**
   * List the table from this S3 Inventory report ({@code s3a://bucket/.../manifest.json}, CSV or
   * Parquet, as AWS writes it) instead of walking its managed directories. It can only narrow the run: only
   * files the report lists are candidates, files modified after it are not, and versions committed
   * after it are kept (docs/cleanup-semantics.md, "Listing from an inventory").
   */
  CleanupAction inventory(String manifestUri);

  /**
   * {@code record_files => true}: each sweep task writes the path, kind and bytes of every file it
   * deleted beside the run record ({@code _maintenance/runs/<run>.files/}, one part per task), and
   * the run's end record names the directory. Nothing is gathered on the driver; a dry run records
   * nothing. For audits and for the counters' proof: the files add up to the result.
   */
  CleanupAction recordFiles(boolean record);

  /**
   * {@code listing => 'always'} (true, the default): list the managed directories on every run.
   * {@code 'auto'} (false): a daily run on S3 examines only the names that can be candidates when
   * the last runs left what it needs (docs/ledger.md, section 11); it pays on tables of many files,
   * while on a table of a few thousand the listing beside the plan is faster (docs/benchmarks.md,
   * stop 34). Keep {@code 'always'} where an object can reach the table with an old modification
   * time behind the store's API: MinIO or s3proxy with files written straight into their backend
   * directory, a copy or restore tool that keeps times, a test that back-dates objects. Only such a
   * listing finds them; the same files go either way otherwise.
   */
  CleanupAction alwaysList(boolean always);

  /**
   * {@code distribute_above}: an engine that distributes (Spark, Flink) cleans a table of at most
   * {@code versions} versions in its own process (the driver, the client) on the local engine, and a
   * larger one as its jobs; 0 runs every table as jobs. Default {@value DistributeAbove#DEFAULT}.
   * The same files go either way; only the run in process decides a daily incremental run from the
   * last run's key snapshot ({@link DistributeAbove}). The local engine always runs in process.
   */
  CleanupAction distributeAbove(int versions);

  /**
   * Makes this run {@code remove_orphan_files} (Iceberg's name): no version expires, and the files
   * under the managed directories (data, deletions, indices, transactions, manifest staging files)
   * that no version of the dataset references, nor any branch reading it, go when modified more
   * than {@link #olderThan} ago (default 7 days, Lance's threshold for unreferenced files). It is
   * the cleanup's run with a policy that expires nothing and deletes unreferenced files ({@link
   * CleanupPolicy.Builder#orphanSweep}), so the retention guard holds: a window under 1 day is
   * refused unless {@link #allowShortRetention}. The options that choose versions are refused.
   */
  CleanupAction orphanFilesOnly();

  /**
   * The policy a run starting at {@code now} would apply, after the checks {@link #execute()} makes
   * first (the retention guard): for callers that must refuse before other work, as optimize does
   * before compacting. Reads nothing.
   */
  CleanupPolicy checkedPolicyAt(Instant now);

  CleanupResult execute();
}
