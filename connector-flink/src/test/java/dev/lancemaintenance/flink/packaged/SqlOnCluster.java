package dev.lancemaintenance.flink.packaged;

import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * A Flink SQL client of a session cluster, for {@link FlinkJobJarIT}: runs each argument after the
 * first two as a statement in a batch {@link TableEnvironment} whose jobs go to the cluster at
 * 127.0.0.1:{@code args[0]} with the job jar {@code args[1]} shipped along ({@code pipeline.jars}),
 * and prints every row. Uses Flink's API only: its JVM has Flink's lib/, the job jar and this class.
 */
public final class SqlOnCluster {
  private SqlOnCluster() {}

  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.set(DeploymentOptions.TARGET, "remote");
    conf.set(RestOptions.ADDRESS, "127.0.0.1");
    conf.set(RestOptions.PORT, Integer.parseInt(args[0]));
    conf.set(PipelineOptions.JARS, List.of(Path.of(args[1]).toUri().toString()));
    TableEnvironment sql =
        TableEnvironment.create(EnvironmentSettings.newInstance().inBatchMode().withConfiguration(conf).build());
    for (int i = 2; i < args.length; i++) {
      try (CloseableIterator<Row> rows = sql.executeSql(args[i]).collect()) {
        rows.forEachRemaining(System.out::println);
      }
    }
  }
}
