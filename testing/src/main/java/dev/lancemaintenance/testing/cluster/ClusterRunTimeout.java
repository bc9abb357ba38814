package dev.lancemaintenance.testing.cluster;

import java.time.Duration;

/**
 * How long a client or driver process on a test cluster may run before it is stopped: five minutes,
 * enough for every test's table; {@code -Dlance.maintenance.cluster.runTimeout=PT40M} for the
 * benchmark's {@code huge} table, whose cleanup takes longer than that on a loaded machine.
 */
final class ClusterRunTimeout {
  static final String PROPERTY = "lance.maintenance.cluster.runTimeout";

  private ClusterRunTimeout() {}

  static Duration get() {
    String value = System.getProperty(PROPERTY);
    return value == null ? Duration.ofMinutes(5) : Duration.parse(value);
  }
}
