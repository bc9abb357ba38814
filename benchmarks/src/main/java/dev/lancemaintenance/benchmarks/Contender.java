package dev.lancemaintenance.benchmarks;

/**
 * One way of cleaning a table that the runner times: the SDK, one of our engines, or the floor.
 * Long-lived state (a warm Spark session) is created before the first run and closed at the end.
 */
interface Contender extends AutoCloseable {
  String name();

  /**
   * Removes every version below {@code beforeVersion} from the table at {@code table} (a fresh
   * copy). Returns the bytes of table metadata it read when the contender can count them, else -1.
   */
  long clean(Table table, long beforeVersion);

  /** Untimed, before each {@link #clean} of a fresh copy: what the contender finds there in real use. */
  default void prepare(Table table) {}

  @Override
  default void close() {}
}
