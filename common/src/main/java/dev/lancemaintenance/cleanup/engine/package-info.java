/**
 * What every engine shares: {@link dev.lancemaintenance.cleanup.engine.BaseCleanupAction} (the
 * self-typed fluent action, the table lease, the branch cascade), {@link
 * dev.lancemaintenance.cleanup.engine.CleanupRun} (the fixed stage order, the gates and the
 * manifest-release rule) and {@link dev.lancemaintenance.cleanup.engine.CleanupStage} (the stages'
 * numbers and labels).
 *
 * <p>Rules of the package: an engine supplies only distribution, a {@link
 * dev.lancemaintenance.cleanup.engine.CleanupRun.Distribution}: how each stage's inputs are
 * partitioned, shipped and collected. It never reorders stages, skips a gate or decides itself
 * whether the expired manifests may go.
 */
package dev.lancemaintenance.cleanup.engine;
