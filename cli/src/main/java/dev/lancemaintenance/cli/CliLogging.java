package dev.lancemaintenance.cli;

import java.util.List;

/**
 * How the command line logs: SLF4J's simple logger, configured through system properties that it
 * reads once, when the first logger is made. So this must run before any class that holds a logger
 * is initialised, and it is a class of its own for that reason: a {@code main} that called into a
 * command first (whose usage text names an action, whose class holds a logger) would configure a
 * logger factory that already exists, and every line would print with Spark's, Hadoop's and Arrow's
 * INFO chatter in the simple logger's default format.
 */
public final class CliLogging {
  private static final String ENGINE_LOG_LEVEL = "org.slf4j.simpleLogger.log.dev.lancemaintenance";

  private CliLogging() {}

  /**
   * Before the first logger exists: on a terminal, the engines' stage lines (INFO) go to stderr as
   * progress, unless {@code commandLine} is a cleanup that draws its progress bar there instead
   * (stage lines would break the bar mid-line); otherwise only warnings. Per-file audit lines stay
   * off unless asked for. A property given on the JVM's command line wins over each default here.
   */
  public static void configure(List<String> commandLine) {
    if (CleanupCommand.drawsBar(commandLine)) {
      setIfAbsent(ENGINE_LOG_LEVEL, "warn");
    }
    setIfAbsent(ENGINE_LOG_LEVEL, System.console() != null ? "info" : "warn");
    setIfAbsent("org.slf4j.simpleLogger.log.dev.lancemaintenance.audit", "warn");
    // A progress line reads "14:03:07 INFO lance cleanup <table> [2/6 mark]: ...": time, no thread or class.
    setIfAbsent("org.slf4j.simpleLogger.showDateTime", "true");
    setIfAbsent("org.slf4j.simpleLogger.dateTimeFormat", "HH:mm:ss");
    setIfAbsent("org.slf4j.simpleLogger.showThreadName", "false");
    setIfAbsent("org.slf4j.simpleLogger.showLogName", "false");
    setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    // A failed Spark task is reported once, as the run's one-line error (--verbose: its trace); Spark's
    // own task-failure logs would repeat it as some 200 lines of stack traces.
    setIfAbsent("org.slf4j.simpleLogger.log.org.apache.spark.executor.Executor", "off");
    setIfAbsent("org.slf4j.simpleLogger.log.org.apache.spark.scheduler.TaskSetManager", "off");
    // Hadoop warns on every start that it has no native library; pure Java is what we want.
    setIfAbsent("org.slf4j.simpleLogger.log.org.apache.hadoop.util.NativeCodeLoader", "error");
  }

  private static void setIfAbsent(String key, String value) {
    if (System.getProperty(key) == null) {
      System.setProperty(key, value);
    }
  }
}
