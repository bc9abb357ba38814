package dev.lancemaintenance.flink.maintenance.operator;

/** Whether a run sends every removed file back to its client, or only the counters. */
public enum FileReport {
  /** Each removed (or, in a dry run, selected) file travels to the client as it is decided. */
  EMIT,
  /** Only counters travel; the files are on the audit logger. */
  COUNT_ONLY
}
