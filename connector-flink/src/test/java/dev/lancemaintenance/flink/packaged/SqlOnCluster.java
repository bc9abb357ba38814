package dev.lancemaintenance.flink.packaged;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink SQL program for {@link FlinkJobJarIT}, submitted with {@code flink run -C <job jar>}
 * (or alone, where the job jar is in Flink's {@code lib/}):
 * runs each argument as a statement in a batch table environment on the environment {@code flink
 * run} hands out (the session cluster's) and prints every row. Uses Flink's API only; the catalog
 * and its procedures come from the job jar on the user classpath.
 */
public final class SqlOnCluster {
  private SqlOnCluster() {}

  public static void main(String[] args) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    StreamTableEnvironment sql = StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
    for (String statement : args) {
      try (CloseableIterator<Row> rows = sql.executeSql(statement).collect()) {
        rows.forEachRemaining(System.out::println);
      }
    }
  }

  /** A jar of this class alone in {@code dir}: the SQL program a user would submit. */
  static Path jar(Path dir) throws IOException {
    String entry = SqlOnCluster.class.getName().replace('.', '/') + ".class";
    Path jar = dir.resolve("sql-program.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        InputStream in = SqlOnCluster.class.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }
}
