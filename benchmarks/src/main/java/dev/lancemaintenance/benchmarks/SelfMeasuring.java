package dev.lancemaintenance.benchmarks;

/** A contender that measures itself (in another process), so the runner must not time it. */
interface SelfMeasuring {
  RunSample measure(Table table, long beforeVersion);
}
