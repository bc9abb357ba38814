/**
 * Spark SQL's {@code CALL lance.cleanup(...)}, {@code lance.compact} and {@code lance.optimize}:
 * argument parsing against the option catalogue, then the actions of {@code dev.lancemaintenance.spark}.
 *
 * <p>Rules of the package: entry points only; no stage logic; depends on {@code spark}, never the
 * reverse.
 */
package dev.lancemaintenance.spark.procedures;
