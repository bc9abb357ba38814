package dev.lancemaintenance.testing.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * JVMs of a Spark installation on 127.0.0.1, as its launcher scripts start them: the test's own
 * {@code java}, the module flags Spark needs on Java 17, the environment a release's scripts set.
 * The processes of the standalone cluster, its drivers, and the Spark Connect server and clients
 * are all started here.
 */
public final class SparkJvm {
  /** The JVM flags Spark's launcher scripts pass on Java 17. */
  public static final List<String> JAVA_MODULE_OPTIONS =
      List.of(
          "-XX:+IgnoreUnrecognizedVMOptions",
          "--add-opens=java.base/java.lang=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
          "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
          "--add-opens=java.base/java.io=ALL-UNNAMED",
          "--add-opens=java.base/java.net=ALL-UNNAMED",
          "--add-opens=java.base/java.nio=ALL-UNNAMED",
          "--add-opens=java.base/java.util=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
          "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
          "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
          "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
          "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
          "-Djdk.reflect.useDirectMethodHandle=false",
          "-Dio.netty.tryReflectionSetAccessible=true");
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

  private final Path sparkHome;
  private final Path workDir;

  /**
   * @param sparkHome a Spark distribution (its {@code jars/}), for {@code SPARK_HOME}
   * @param workDir where each process's output and log go, {@code <name>.out} and {@code <name>.log}
   */
  public SparkJvm(Path sparkHome, Path workDir) {
    this.sparkHome = sparkHome.toAbsolutePath();
    this.workDir = workDir.toAbsolutePath();
  }

  /** The Spark distribution's jars, as a class path entry. */
  public String sparkClassPath() {
    return sparkHome.resolve("jars") + "/*";
  }

  public Path log(String name) {
    return workDir.resolve(name + ".log");
  }

  /**
   * Starts {@code mainClass} with Spark settings {@code conf} (system properties, which SparkConf
   * reads) and returns once its log matches {@code readyPattern}; fails with the log's tail if it
   * exits or is not ready in time. Its standard output and error both go to {@link #log}.
   */
  public Process startDaemon(
      String name, String classPath, Map<String, String> conf, String readyPattern, String mainClass, List<String> args) {
    Path log = log(name);
    try {
      Files.createDirectories(workDir);
      Process process =
          processBuilder(command(classPath, conf, mainClass, args)).redirectErrorStream(true)
              .redirectOutput(log.toFile()).start();
      try {
        awaitLine(name, process, log, Pattern.compile(readyPattern));
      } catch (RuntimeException e) {
        stop(process);
        throw e;
      }
      return process;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Spark " + name, e);
    }
  }

  /**
   * Runs {@code mainClass} to its end with Spark settings {@code conf}; returns its standard output
   * and fails with its log (standard error) when it exits non-zero or runs over five minutes.
   */
  public String run(String name, String classPath, Map<String, String> conf, String mainClass, List<String> args) {
    Path out = workDir.resolve(name + ".out");
    Path log = log(name);
    try {
      Files.createDirectories(workDir);
      Process process =
          processBuilder(command(classPath, conf, mainClass, args)).redirectOutput(out.toFile())
              .redirectError(log.toFile()).start();
      Duration timeout = ClusterRunTimeout.get();
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        stop(process);
        throw new IllegalStateException(name + " did not finish in " + timeout + "; log: " + tail(log));
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(name + " exited " + process.exitValue() + "; log: " + tail(log));
      }
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name, e);
    }
  }

  /** Kills {@code process} and whatever it started (a Worker's executors). */
  public static void stop(Process process) {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  /** The last 40 lines of {@code log}, for a failure message. */
  public static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log + ")";
    }
  }

  private List<String> command(String classPath, Map<String, String> conf, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(JAVA_MODULE_OPTIONS);
    command.add("-cp");
    command.add(classPath);
    conf.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.add(mainClass);
    command.addAll(args);
    return command;
  }

  private ProcessBuilder processBuilder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command);
    // What a release's sbin scripts set: the Worker builds executor command lines from SPARK_HOME.
    builder.environment().put("SPARK_HOME", sparkHome.toString());
    builder.environment().put("SPARK_SCALA_VERSION", "2.13");
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().remove("SPARK_CONF_DIR");
    // Relative paths a process writes (spark-warehouse, metastore_db) stay in the test's directory.
    builder.directory(workDir.toFile());
    return builder;
  }

  private static void awaitLine(String name, Process process, Path log, Pattern ready) throws IOException {
    Instant deadline = Instant.now().plus(START_TIMEOUT);
    while (Instant.now().isBefore(deadline)) {
      if (Files.exists(log) && ready.matcher(Files.readString(log, StandardCharsets.UTF_8)).find()) {
        return;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException("Spark " + name + " exited " + process.exitValue() + ": " + tail(log));
      }
      sleep(Duration.ofMillis(200));
    }
    throw new IllegalStateException("Spark " + name + " not ready in " + START_TIMEOUT + ": " + tail(log));
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
