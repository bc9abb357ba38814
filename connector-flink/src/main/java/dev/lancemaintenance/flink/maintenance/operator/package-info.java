/**
 * The Flink engine's operators: the stages of {@link dev.lancemaintenance.cleanup.engine.CleanupRun}
 * wired into one BATCH job by {@link dev.lancemaintenance.flink.maintenance.operator.CleanupTopology},
 * with {@code CleanupRun}'s gates placed where their reductions land ({@link
 * dev.lancemaintenance.flink.maintenance.operator.CheckGate}, {@link
 * dev.lancemaintenance.flink.maintenance.operator.ReleaseGate}).
 *
 * <p>Rules of the package: distribution only; what orders the deletes is BATCH execution (broadcast
 * inputs first, reductions that exist only once their input ended); only Flink APIs every
 * supported Flink line has.
 */
package dev.lancemaintenance.flink.maintenance.operator;
