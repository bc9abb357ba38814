package dev.lancemaintenance.spark.cluster;

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

/**
 * A Spark standalone cluster of separate processes on 127.0.0.1: a Master and one Worker, each a
 * JVM started from a Spark distribution's {@code jars/}, and the executors the Worker starts for
 * each application in JVMs of their own. The distribution is the Spark Maven artifacts the build
 * copies into {@code sparkHome/jars} (Spark's launcher finds the jars there, as in a release).
 */
public final class StandaloneCluster implements AutoCloseable {
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
  private final String masterUrl;
  private final List<Process> daemons = new ArrayList<>();

  private StandaloneCluster(Path sparkHome, Path workDir, String masterUrl) {
    this.sparkHome = sparkHome;
    this.workDir = workDir;
    this.masterUrl = masterUrl;
  }

  /** Starts a Master and a Worker with {@code cores} cores; logs and executor dirs go under {@code workDir}. */
  public static StandaloneCluster start(Path sparkHome, Path workDir, int cores) {
    if (!Files.isDirectory(sparkHome.resolve("jars"))) {
      throw new IllegalStateException("no Spark distribution at " + sparkHome + ": run mvn package first");
    }
    int port = freePort();
    StandaloneCluster cluster = new StandaloneCluster(sparkHome, workDir, "spark://127.0.0.1:" + port);
    try {
      cluster.daemon("master", "Successfully started service 'sparkMaster'|I have been elected leader",
          "org.apache.spark.deploy.master.Master",
          "--host", "127.0.0.1", "--port", Integer.toString(port), "--webui-port", Integer.toString(freePort()));
      cluster.daemon("worker", "Successfully registered with master",
          "org.apache.spark.deploy.worker.Worker", cluster.masterUrl,
          "--host", "127.0.0.1", "--cores", Integer.toString(cores), "--memory", "2g",
          "--work-dir", workDir.resolve("worker").toString(), "--webui-port", Integer.toString(freePort()));
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  public String masterUrl() {
    return masterUrl;
  }

  /** The Spark distribution's jars, as a class path entry. */
  public String sparkClassPath() {
    return sparkHome.resolve("jars") + "/*";
  }

  /** Where the Worker keeps each application's executor directories ({@code app-*}/{@code <id>}). */
  public Path executorDirs() {
    return workDir.resolve("worker");
  }

  /**
   * Runs {@code mainClass} as a driver JVM in client mode with {@code classPath} and Spark settings
   * {@code conf} (passed as system properties, which SparkConf reads); returns its standard output
   * and fails with its log when it exits non-zero.
   */
  public String runDriver(String name, String classPath, Map<String, String> conf, String mainClass, List<String> args) {
    List<String> command = new ArrayList<>(javaCommand(classPath));
    conf.forEach((k, v) -> command.add("-D" + k + "=" + v));
    command.add(mainClass);
    command.addAll(args);
    Path out = workDir.resolve(name + ".out");
    Path log = workDir.resolve(name + ".log");
    try {
      Process driver = processBuilder(command).redirectOutput(out.toFile()).redirectError(log.toFile()).start();
      if (!driver.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
        driver.descendants().forEach(ProcessHandle::destroyForcibly);
        driver.destroyForcibly();
        throw new IllegalStateException("driver " + name + " did not finish in 5 minutes; log: " + tail(log));
      }
      if (driver.exitValue() != 0) {
        throw new IllegalStateException("driver " + name + " exited " + driver.exitValue() + "; log: " + tail(log));
      }
      return Files.readString(out, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run driver " + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for driver " + name, e);
    }
  }

  private void daemon(String name, String readyPattern, String mainClass, String... args) {
    List<String> command = new ArrayList<>(javaCommand(sparkClassPath()));
    command.add(mainClass);
    command.addAll(List.of(args));
    Path log = workDir.resolve(name + ".log");
    try {
      Files.createDirectories(workDir);
      Process process = processBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      daemons.add(process);
      awaitLine(name, process, log, readyPattern);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the Spark " + name, e);
    }
  }

  private static void awaitLine(String name, Process process, Path log, String pattern) throws IOException {
    java.util.regex.Pattern ready = java.util.regex.Pattern.compile(pattern);
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

  private ProcessBuilder processBuilder(List<String> command) {
    ProcessBuilder builder = new ProcessBuilder(command);
    // What a release's sbin scripts set: the Worker builds executor command lines from SPARK_HOME.
    builder.environment().put("SPARK_HOME", sparkHome.toString());
    builder.environment().put("SPARK_SCALA_VERSION", "2.13");
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().remove("SPARK_CONF_DIR");
    return builder;
  }

  private static List<String> javaCommand(String classPath) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx1g");
    command.addAll(JAVA_MODULE_OPTIONS);
    command.add("-cp");
    command.add(classPath);
    return command;
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(no log at " + log + ")";
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free port", e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Stops the Worker (and any executor it left) and the Master. */
  @Override
  public void close() {
    // The Worker first, so that it does not restart executors as the Master goes.
    for (int i = daemons.size() - 1; i >= 0; i--) {
      Process daemon = daemons.get(i);
      daemon.descendants().forEach(ProcessHandle::destroyForcibly);
      daemon.destroyForcibly();
    }
  }
}
