package dev.lancemaintenance.testing.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A Spark standalone cluster of separate processes on 127.0.0.1: a Master and one Worker, each a
 * JVM started from a Spark distribution's {@code jars/}, and the executors the Worker starts for
 * each application in JVMs of their own. The distribution is the Spark Maven artifacts the build
 * copies into {@code sparkHome/jars} (Spark's launcher finds the jars there, as in a release).
 */
public final class StandaloneCluster implements AutoCloseable {
  private final SparkJvm jvm;
  private final Path workDir;
  private final String masterUrl;
  private final List<Process> daemons = new ArrayList<>();

  private StandaloneCluster(SparkJvm jvm, Path workDir, String masterUrl) {
    this.jvm = jvm;
    this.workDir = workDir;
    this.masterUrl = masterUrl;
  }

  /** Starts a Master and a Worker with {@code cores} cores; logs and executor dirs go under {@code workDir}. */
  public static StandaloneCluster start(Path sparkHome, Path workDir, int cores) {
    if (!Files.isDirectory(sparkHome.resolve("jars"))) {
      throw new IllegalStateException("no Spark distribution at " + sparkHome + ": run mvn package first");
    }
    int port = SparkJvm.freePort();
    StandaloneCluster cluster =
        new StandaloneCluster(new SparkJvm(sparkHome, workDir), workDir, "spark://127.0.0.1:" + port);
    try {
      cluster.daemon("master", "Successfully started service 'sparkMaster'|I have been elected leader",
          "org.apache.spark.deploy.master.Master",
          "--host", "127.0.0.1", "--port", Integer.toString(port), "--webui-port", Integer.toString(SparkJvm.freePort()));
      cluster.daemon("worker", "Successfully registered with master",
          "org.apache.spark.deploy.worker.Worker", cluster.masterUrl,
          "--host", "127.0.0.1", "--cores", Integer.toString(cores), "--memory", "2g",
          "--work-dir", workDir.resolve("worker").toString(), "--webui-port", Integer.toString(SparkJvm.freePort()));
      return cluster;
    } catch (RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  public String masterUrl() {
    return masterUrl;
  }

  /**
   * The settings of an application deployed on this cluster with only {@code bundle}, as {@code
   * spark-submit --jars} ships it to the executors: both cores of the Worker, executors of 1 GB with
   * the module flags Spark needs on Java 17, no UI.
   */
  public static Map<String, String> applicationConf(Path bundle) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.jars", bundle.toString());
    conf.put("spark.driver.host", "127.0.0.1");
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.cores.max", "2");
    conf.put("spark.executor.cores", "2");
    conf.put("spark.executor.memory", "1g");
    conf.put("spark.executor.extraJavaOptions", String.join(" ", SparkJvm.JAVA_MODULE_OPTIONS));
    return conf;
  }

  /** The bundle jar ({@code lance-maintenance-spark-<sparkMinor>_<scala>-<version>.jar}) that {@code package} built in {@code buildDir}. */
  public static Path bundleJar(Path buildDir) {
    try (Stream<Path> jars = Files.list(buildDir)) {
      return jars.filter(p -> p.getFileName().toString().matches("lance-maintenance-spark-[0-9.]+_[0-9.]+-.*\\.jar"))
          .findFirst()
          .orElseThrow(() -> new IllegalStateException("no bundle jar in " + buildDir + ": run mvn package first"));
    } catch (IOException e) {
      throw new UncheckedIOException("no build directory " + buildDir + ": run mvn package first", e);
    }
  }

  /** The Spark distribution's jars, as a class path entry. */
  public String sparkClassPath() {
    return jvm.sparkClassPath();
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
    return jvm.run(name, classPath, conf, mainClass, args);
  }

  private void daemon(String name, String readyPattern, String mainClass, String... args) {
    daemons.add(jvm.startDaemon(name, sparkClassPath(), Map.of(), readyPattern, mainClass, List.of(args)));
  }

  /** Stops the Worker (and any executor it left) and the Master. */
  @Override
  public void close() {
    // The Worker first, so that it does not restart executors as the Master goes.
    for (int i = daemons.size() - 1; i >= 0; i--) {
      SparkJvm.stop(daemons.get(i));
    }
  }
}
