package dev.lancemaintenance.flink.packaged;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink SQL program for {@link FlinkJobJarIT}, submitted with {@code flink run -C <job jar>}:
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
}
