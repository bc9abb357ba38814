package dev.lancemaintenance.spark.connect;

import dev.lancemaintenance.testing.cluster.SparkJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Spark Connect server in its own JVM, as {@code sbin/start-connect-server.sh} runs it: a Spark
 * distribution's {@code jars/}, the {@code spark-connect} server jar, and the jars the cluster
 * administrator adds (here only our bundle), in local mode, serving gRPC on 127.0.0.1 on a free
 * port. Everything it logs goes to {@link #log()}.
 */
final class ConnectServer implements AutoCloseable {
  private static final String MAIN = "org.apache.spark.sql.connect.service.SparkConnectServer";
  private static final String READY = "Spark Connect server started at";

  private final Process process;
  private final Path log;
  private final int port;

  private ConnectServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * @param jvm the Spark distribution the server runs from
   * @param serverJar {@code spark-connect_<scala>-<version>.jar}
   * @param libraries what the server adds to its class path, e.g. our bundle
   * @param conf the server's Spark settings, e.g. the {@code lance} catalog
   */
  static ConnectServer start(SparkJvm jvm, Path serverJar, List<Path> libraries, Map<String, String> conf) {
    if (!Files.isRegularFile(serverJar)) {
      throw new IllegalStateException("no Spark Connect server jar at " + serverJar + ": run mvn package first");
    }
    int port = SparkJvm.freePort();
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("spark.master", "local[2]");
    settings.put("spark.app.name", "lance-maintenance Spark Connect test");
    settings.put("spark.driver.host", "127.0.0.1");
    settings.put("spark.ui.enabled", "false");
    settings.put("spark.connect.grpc.binding.address", "127.0.0.1");
    settings.put("spark.connect.grpc.binding.port", Integer.toString(port));
    settings.putAll(conf);
    StringBuilder classPath = new StringBuilder(jvm.sparkClassPath()).append(':').append(serverJar);
    libraries.forEach(jar -> classPath.append(':').append(jar));
    Process process = jvm.startDaemon("connect-server", classPath.toString(), settings, READY, MAIN, List.of());
    return new ConnectServer(process, jvm.log("connect-server"), port);
  }

  /** The address a client connects to, {@code sc://127.0.0.1:<port>}. */
  String url() {
    return "sc://127.0.0.1:" + port;
  }

  /** The server's log: Spark's and ours, at Spark's default level (INFO). */
  Path log() {
    return log;
  }

  @Override
  public void close() {
    SparkJvm.stop(process);
  }
}
