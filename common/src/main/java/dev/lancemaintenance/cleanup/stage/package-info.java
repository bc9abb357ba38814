/**
 * The stages after the plan, as small pieces every engine calls: mark ({@link
 * dev.lancemaintenance.cleanup.stage.MarkManifests}), list ({@link
 * dev.lancemaintenance.cleanup.stage.ListManagedFiles}), decide ({@link
 * dev.lancemaintenance.cleanup.stage.DecideByPath}), sweep ({@link
 * dev.lancemaintenance.cleanup.stage.SweepBatch} with a {@link
 * dev.lancemaintenance.cleanup.stage.DeletePacer}), and the monoids their tasks reduce.
 *
 * <p>Rules of the package: a stage works on one slice, one directory, one key or one batch, never
 * the whole table; its inputs and outputs are serializable records; it knows nothing of threads,
 * RDDs or operators; the order and the gates between stages are {@link
 * dev.lancemaintenance.cleanup.engine.CleanupRun}'s, not a stage's.
 */
package dev.lancemaintenance.cleanup.stage;
