package dev.lancemaintenance.cli;

import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine a command runs on ({@code --engine}, default {@code local}). The local engine is
 * built in and made directly: a local run neither scans the classpath nor loads (or instantiates)
 * the Spark and Flink engines, whose classes pull in their runtimes. Any other name is looked up
 * with {@link ServiceLoader}, so the commands compile against neither Spark nor Flink and an engine
 * is there when its jar is.
 */
final class Engines {
  static final String LOCAL = "local";

  private Engines() {}

  /**
   * @param type the engine interface ({@code CleanupEngine}, {@code CompactionEngine})
   * @param name the {@code --engine} value, or null for the local engine
   */
  static <T> T named(Class<T> type, String name, Function<T, String> nameOf, Supplier<T> local) {
    if (name == null || name.equals(LOCAL)) {
      return local.get();
    }
    Set<String> available = new TreeSet<>(Set.of(LOCAL));
    for (T engine : ServiceLoader.load(type)) {
      if (nameOf.apply(engine).equals(name)) {
        return engine;
      }
      available.add(nameOf.apply(engine));
    }
    throw new UsageException(
        "No engine '" + name + "' on the classpath (available: " + String.join(", ", available) + ")");
  }
}
