/**
 * The Spark engine and the notebook API ({@link dev.lancemaintenance.spark.LanceMaintenance}): the
 * stages of {@link dev.lancemaintenance.cleanup.engine.CleanupRun} as Spark jobs, one function class
 * per stage shipped to the executors.
 *
 * <p>Rules of the package: distribution only; executors get the broadcast storage factory and small
 * records, never a live client; the driver holds reductions, never a list of paths; no import of
 * {@code spark.procedures} (the procedures build on this package, not the other way round); only
 * Spark APIs every supported Spark line has.
 */
package dev.lancemaintenance.spark;
