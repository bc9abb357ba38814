package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.local.LocalMaintenanceEngine;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * The engine a command runs on ({@code --engine}, default {@code local}). The local engine is
 * built in and made directly: a local run neither scans the classpath nor loads (or instantiates)
 * the Spark and Flink engines, whose classes pull in their runtimes. Any other name is looked up
 * with {@link ServiceLoader}, so the commands compile against neither Spark nor Flink and an engine
 * is there when its jar is. A program that is itself an engine's entry point ({@code flink run})
 * hands its engine in instead, and nothing is looked up.
 */
final class Engines {
  static final String LOCAL = "local";

  /** The only engine of this program, or null to look the named one up. */
  private final MaintenanceEngine only;

  private Engines(MaintenanceEngine only) {
    this.only = only;
  }

  /** The local engine, or whichever engine's jar is on the classpath under the name given. */
  static Engines onClasspath() {
    return new Engines(null);
  }

  /** Always {@code engine}; {@code --engine} may name it, and naming another is a usage error. */
  static Engines only(MaintenanceEngine engine) {
    return new Engines(engine);
  }

  /** @param name the {@code --engine} value, or null for the default */
  MaintenanceEngine named(String name) {
    if (only != null) {
      if (name != null && !name.equals(only.name())) {
        throw new UsageException("This program runs on the " + only.name() + " engine only; drop --engine " + name);
      }
      return only;
    }
    if (name == null || name.equals(LOCAL)) {
      return new LocalMaintenanceEngine();
    }
    Set<String> available = new TreeSet<>(Set.of(LOCAL));
    for (MaintenanceEngine engine : ServiceLoader.load(MaintenanceEngine.class)) {
      if (engine.name().equals(name)) {
        return engine;
      }
      available.add(engine.name());
    }
    throw new UsageException(
        "No engine '" + name + "' on the classpath (available: " + String.join(", ", available) + ")");
  }
}
