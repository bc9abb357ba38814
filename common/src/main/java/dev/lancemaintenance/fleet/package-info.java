/**
 * The fleet: maintenance of every table under a directory in one call ({@code cleanup_all}, {@code
 * describe_storage_all}, {@code optimize_all}, one {@link FleetRun} kind each). A fleet run finds
 * the tables of a Lance directory namespace ({@link DirectoryNamespace}), runs the one-table action
 * on each exactly as a call on that table alone would, and reports one {@link TableOutcome} per
 * table; a table that fails or is refused is reported in its row and the others go on.
 *
 * <p>Rules of the package: no semantics of its own (each table runs the same action, with the same
 * options and the same "now", as a call on it alone); memory bounded by the number of tables, never
 * by their files; engines only choose where each table runs ({@link FleetPool} threads here, one
 * Spark job or Flink job over the small tables, a large table on the engine's distributed stages).
 */
package dev.lancemaintenance.fleet;
