package dev.lancemaintenance.flink.maintenance.operator;

import org.apache.flink.connector.datagen.source.GeneratorFunction;

/** The tick stream that drives periodic maintenance: the tick's sequence number, nothing else. */
public final class Ticks implements GeneratorFunction<Long, Long> {
  @Override
  public Long map(Long sequence) {
    return sequence;
  }
}
