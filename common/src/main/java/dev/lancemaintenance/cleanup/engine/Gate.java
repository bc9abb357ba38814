package dev.lancemaintenance.cleanup.engine;

import java.io.Serializable;

/**
 * A check between two stages of {@link CleanupRun}: passes the reduced result of the stages before
 * it on, or refuses the run with a {@link dev.lancemaintenance.MaintenanceException} that names the
 * table and the rule. Serializable, so a distributed engine can run the same check where its
 * reduction lands (a Flink operator of parallelism 1).
 *
 * @param <I> the reduced result the gate reads
 * @param <O> what the stages after it receive
 */
@FunctionalInterface
public interface Gate<I, O> extends Serializable {
  O check(I reduced);
}
