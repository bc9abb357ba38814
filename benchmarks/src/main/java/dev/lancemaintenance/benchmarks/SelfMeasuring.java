package dev.lancemaintenance.benchmarks;

/** A contender that measures itself (in another process), so the runner must not time it. */
interface SelfMeasuring extends Contender {
  RunSample measure(Table table, long beforeVersion);

  @Override
  default long clean(Table table, long beforeVersion) {
    return measure(table, beforeVersion).metadataBytes();
  }
}
