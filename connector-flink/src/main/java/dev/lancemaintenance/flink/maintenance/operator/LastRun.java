package dev.lancemaintenance.flink.maintenance.operator;

/**
 * What periodic maintenance remembers between runs, in checkpointed operator state: when the last
 * run started and the table's latest version then. A job restored from a checkpoint resumes the
 * schedule from it instead of starting over.
 *
 * @param startedMillis processing time the last run started
 * @param version the table's latest version when it started
 */
public record LastRun(long startedMillis, long version) {}
