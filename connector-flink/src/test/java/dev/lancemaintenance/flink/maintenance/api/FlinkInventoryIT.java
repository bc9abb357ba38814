package dev.lancemaintenance.flink.maintenance.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.flink.FlinkTestCluster;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.stores.S3Bucket;
import dev.lancemaintenance.testing.stores.S3InventoryReport;
import dev.lancemaintenance.testing.stores.S3Tables;
import dev.lancemaintenance.testing.stores.TableCopies;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.ConcurrentSkipListSet;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Flink engine listing a table on S3 from an S3 Inventory report in Parquet: the report's data
 * files are the listing subtasks' records, each read there a row group at a time, and the run removes exactly what the run that lists the store would.
 */
class FlinkInventoryIT {
  private static final String BUCKET = "flink-inventory";
  @RegisterExtension static final MiniClusterExtension CLUSTER = FlinkTestCluster.extension();
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  private static FlinkCleanupAction cleanup(String key) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.setParallelism(FlinkTestCluster.PARALLELISM);
    return LanceFlinkMaintenance.cleanup(env, S3.s3aUri(key), S3.hadoopSettings()).distributeAbove(0);
  }

  private static SortedMap<String, Long> objects(String key) {
    return TableCopies.listFiles(S3.s3aUri(key), S3.storageConf().toConfiguration());
  }

  @Test
  void removesFromTheReportWhatTheListingRemoves() {
    LanceTableFixture table = S3Tables.writeCompactedHistory(S3.server(), BUCKET, "t.lance");
    ContractPolicy policy = S3Tables.oldHistory(table);
    Set<String> listed = new ConcurrentSkipListSet<>();
    policy.applyTo(cleanup("t.lance")).dryRun(true).onRemovedFile(f -> listed.add(f.path())).execute();
    S3.server().createBucket("inventory");
    String manifest = new S3InventoryReport().inParquet().rowsPerFile(9).write(S3.server(), BUCKET, "inventory", "reports");

    SortedMap<String, Long> before = objects("t.lance");
    policy.applyTo(cleanup("t.lance")).inventory(manifest).execute();

    assertThat(listed).as("files the listing's run removes").hasSizeGreaterThan(5);
    assertThat(S3Tables.removed(before, objects("t.lance"))).as("removed from the report").isEqualTo(listed);
  }
}
