package dev.lancemaintenance.testing.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A Flink session cluster as {@code bin/start-cluster.sh} starts one: a JobManager process
 * ({@code StandaloneSessionClusterEntrypoint}) and a TaskManager process ({@code
 * TaskManagerRunner}), each a JVM whose classpath is Flink's {@code lib/} only, configured by a
 * {@code conf/config.yaml}, on 127.0.0.1. {@link #flink} runs {@code bin/flink}'s main ({@code
 * CliFrontend}) the same way: it submits through the cluster's REST endpoint.
 */
public final class FlinkSessionCluster implements AutoCloseable {
  /** What a client run printed. */
  public record Run(int exit, String out, String err) {
    public Run assertSucceeded() {
      if (exit != 0) {
        throw new AssertionError("exited " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err);
      }
      return this;
    }
  }

  private final Path home;
  private final Path lib;
  private final List<Path> extraLib;
  private final int restPort;
  private final List<Process> processes = new ArrayList<>();

  private FlinkSessionCluster(Path home, Path lib, List<Path> extraLib, int restPort) {
    this.home = home;
    this.lib = lib;
    this.extraLib = List.copyOf(extraLib);
    this.restPort = restPort;
  }

  /**
   * A cluster on {@code flinkLib} (Flink's own jars, as a Flink distribution's {@code lib/} has them)
   * and {@code extraLib}, once {@code jobJar} is built and Flink's lib/ is checked to hold Flink's jars
   * only (no Hadoop, Jackson, protobuf, Arrow or Lance, none of our modules): what the job jar needs
   * must be inside it.
   */
  public static FlinkSessionCluster startOnFlinkLib(Path jobJar, Path flinkLib, List<Path> extraLib, Path home) {
    if (!Files.isRegularFile(jobJar)) {
      throw new IllegalStateException("no job jar at " + jobJar + ": run mvn package first");
    }
    try (java.util.stream.Stream<Path> jars = Files.list(flinkLib)) {
      List<String> foreign = jars.map(p -> p.getFileName().toString())
          .filter(name -> name.startsWith("hadoop-") || name.startsWith("jackson-") || name.startsWith("protobuf-")
              || name.startsWith("lance-") || name.startsWith("arrow-"))
          .toList();
      if (!foreign.isEmpty()) {
        throw new IllegalStateException("Flink's lib/ must hold Flink's jars only, but has " + foreign);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + flinkLib, e);
    }
    return start(flinkLib, extraLib, home);
  }

  /**
   * Starts the JobManager and one TaskManager with two slots; returns once the TaskManager
   * registered. {@code extraLib}, jars a user dropped into Flink's {@code lib/}, are on the classpath
   * of the JobManager, the TaskManager and every client, as {@code lib/*} puts them there.
   */
  private static FlinkSessionCluster start(Path lib, List<Path> extraLib, Path home) {
    int restPort = freePort();
    FlinkSessionCluster cluster = new FlinkSessionCluster(home, lib, extraLib, restPort);
    try {
      cluster.writeConf(freePort());
      cluster.processes.add(cluster.startDaemon(
          "jobmanager", "-Xmx512m", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint"));
      cluster.processes.add(cluster.startDaemon(
          "taskmanager", "-Xmx512m", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner"));
      cluster.awaitTaskManager();
      return cluster;
    } catch (RuntimeException | Error e) {
      cluster.close();
      throw e;
    }
  }

  /** {@code http://127.0.0.1:<rest port>}. */
  public URI rest() {
    return URI.create("http://127.0.0.1:" + restPort);
  }

  public int restPort() {
    return restPort;
  }

  public Path conf() {
    return home.resolve("conf");
  }

  /** {@code bin/flink args}: Flink's command line with {@code FLINK_CONF_DIR} set to this cluster's conf. */
  public Run flink(List<String> args) {
    return client("org.apache.flink.client.cli.CliFrontend", List.of(), args);
  }

  /**
   * A client JVM with Flink's {@code lib/} and {@code extraClasspath} on its classpath, running
   * {@code mainClass}, with {@code FLINK_CONF_DIR} set to this cluster's conf.
   */
  public Run client(String mainClass, List<Path> extraClasspath, List<String> args) {
    List<String> command = java("-Xmx512m", "client", extraClasspath);
    command.add(mainClass);
    command.addAll(args);
    Path out = home.resolve("client.out");
    Path err = home.resolve("client.err");
    ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().put("FLINK_CONF_DIR", conf().toString());
    try {
      Process process = builder.start();
      Duration timeout = ClusterRunTimeout.get();
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("client still running after " + timeout + ": " + command + "\nstdout:\n"
            + Files.readString(out) + "\nstderr:\n" + Files.readString(err) + logs());
      }
      return new Run(process.exitValue(), Files.readString(out), Files.readString(err) + logs());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** {@code GET <rest>/<path>}'s body. */
  public String get(String path) {
    try {
      HttpResponse<String> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(rest().resolve(path)).timeout(Duration.ofSeconds(10)).build(),
          HttpResponse.BodyHandlers.ofString());
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException("GET " + path + " on " + rest(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** How many jobs the cluster has finished. */
  public int finishedJobs() {
    return get("jobs/overview").split("\"state\":\"FINISHED\"", -1).length - 1;
  }

  /** The cluster's log files, for failure messages. */
  public String logs() {
    StringBuilder text = new StringBuilder();
    for (String name : List.of("jobmanager", "taskmanager")) {
      Path log = home.resolve("log").resolve(name + ".log");
      try {
        if (Files.exists(log)) {
          List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
          text.append("\n--- ").append(log).append(" (last 80 lines)\n");
          lines.subList(Math.max(0, lines.size() - 80), lines.size()).forEach(l -> text.append(l).append('\n'));
        }
      } catch (IOException e) {
        text.append("\n(cannot read ").append(log).append(": ").append(e).append(")\n");
      }
    }
    return text.toString();
  }

  private void writeConf(int rpcPort) {
    try {
      Files.createDirectories(conf());
      Files.createDirectories(home.resolve("log"));
      Files.createDirectories(home.resolve("tmp"));
      // Memory in the fine-grained form: the daemons get no start script to work out the sums.
      Map<String, String> conf = new java.util.LinkedHashMap<>();
      conf.put("jobmanager.rpc.address", "127.0.0.1");
      conf.put("jobmanager.rpc.port", Integer.toString(rpcPort));
      conf.put("jobmanager.bind-host", "127.0.0.1");
      conf.put("jobmanager.memory.heap.size", "384m");
      conf.put("jobmanager.memory.off-heap.size", "64m");
      conf.put("jobmanager.memory.jvm-metaspace.size", "256m");
      conf.put("taskmanager.host", "127.0.0.1");
      conf.put("taskmanager.bind-host", "127.0.0.1");
      conf.put("taskmanager.numberOfTaskSlots", "2");
      // Every term of the TaskManager's resource spec: bin/taskmanager.sh derives them, we state them.
      conf.put("taskmanager.cpu.cores", "2");
      conf.put("taskmanager.memory.framework.heap.size", "128m");
      conf.put("taskmanager.memory.framework.off-heap.size", "128m");
      conf.put("taskmanager.memory.task.off-heap.size", "0m");
      conf.put("taskmanager.memory.task.heap.size", "256m");
      conf.put("taskmanager.memory.managed.size", "32m");
      conf.put("taskmanager.memory.network.min", "128m");
      conf.put("taskmanager.memory.network.max", "128m");
      conf.put("taskmanager.memory.jvm-metaspace.size", "256m");
      conf.put("taskmanager.memory.jvm-overhead.min", "192m");
      conf.put("taskmanager.memory.jvm-overhead.max", "192m");
      conf.put("parallelism.default", "2");
      conf.put("rest.address", "127.0.0.1");
      conf.put("rest.bind-address", "127.0.0.1");
      conf.put("rest.port", Integer.toString(restPort));
      conf.put("io.tmp.dirs", home.resolve("tmp").toString());
      conf.put("web.tmpdir", home.resolve("tmp").toString());
      conf.put("high-availability.type", "NONE");
      StringBuilder yaml = new StringBuilder();
      conf.forEach((k, v) -> yaml.append(k).append(": ").append(v).append('\n'));
      Files.writeString(conf().resolve("config.yaml"), yaml);
      Files.writeString(conf().resolve("log4j.properties"),
          "rootLogger.level = INFO\n"
              + "rootLogger.appenderRef.file.ref = file\n"
              + "appender.file.type = File\n"
              + "appender.file.name = file\n"
              + "appender.file.fileName = ${sys:log.file}\n"
              + "appender.file.layout.type = PatternLayout\n"
              + "appender.file.layout.pattern = %d{HH:mm:ss,SSS} %-5p %c{1} - %m%n\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the Flink conf under " + home, e);
    }
  }

  private Process startDaemon(String name, String heap, String mainClass) {
    List<String> command = java(heap, name, List.of());
    command.add(mainClass);
    command.add("--configDir");
    command.add(conf().toString());
    try {
      return new ProcessBuilder(command)
          .redirectOutput(home.resolve("log").resolve(name + ".out").toFile())
          .redirectErrorStream(true)
          .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the " + name, e);
    }
  }

  /** {@code java} with the test JVM's module flags (Flink's env.java.opts.all), Flink's lib/ and log4j. */
  private List<String> java(String heap, String logName, List<Path> extraClasspath) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(arg -> arg.startsWith("--add-opens") || arg.startsWith("--add-exports"))
        .forEach(command::add);
    command.add(heap);
    command.add("-Dlog.file=" + home.resolve("log").resolve(logName + ".log"));
    command.add("-Dlog4j.configurationFile=" + conf().resolve("log4j.properties").toUri());
    StringBuilder classpath = new StringBuilder(lib.resolve("*").toString());
    extraLib.forEach(p -> classpath.append(java.io.File.pathSeparator).append(p));
    extraClasspath.forEach(p -> classpath.append(java.io.File.pathSeparator).append(p));
    command.add("-cp");
    command.add(classpath.toString());
    return command;
  }

  private void awaitTaskManager() {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
    while (System.nanoTime() < deadline) {
      for (Process process : processes) {
        if (!process.isAlive()) {
          throw new IllegalStateException("a Flink daemon exited with " + process.exitValue() + logs());
        }
      }
      try {
        if (get("taskmanagers").contains("\"slotsNumber\"")) {
          return;
        }
      } catch (UncheckedIOException notYetListening) {
        // The JobManager's REST endpoint is not up yet.
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("no TaskManager registered within 3 minutes" + logs());
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    for (Process process : processes) {
      process.destroy();
    }
    for (Process process : processes) {
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroyForcibly();
      }
    }
  }
}
