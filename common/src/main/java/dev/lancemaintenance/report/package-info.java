/**
 * The storage report (the DBA's view of one table): what every listed file is for, and what a
 * cleanup would free under the given policy and under other retention windows, computed in one
 * pass by the cleanup's own stages: the plan ({@link dev.lancemaintenance.cleanup.plan.CleanupPlanner}),
 * a mark that records each file's newest referencing version instead of one keep/drop state
 * ({@link dev.lancemaintenance.report.MarkReferenceAges}), the listing ({@link
 * dev.lancemaintenance.cleanup.stage.ListManagedFiles}), and per window the cleanup's own decision
 * ({@link dev.lancemaintenance.cleanup.stage.DecideByPath}) fed with the state that window gives the
 * file ({@link dev.lancemaintenance.report.ClassifyFiles}).
 *
 * <p>Rules of the package: no rule of its own about what a cleanup removes (a window's prediction
 * is the cleanup's decision, so the two cannot drift; {@code StorageReportIT} runs both); stages
 * work on one slice or one file and reduce to counters ({@link
 * dev.lancemaintenance.report.StorageCounters}), never to paths; engines distribute through {@link
 * dev.lancemaintenance.report.StorageReportRun.Distribution} only.
 */
package dev.lancemaintenance.report;
