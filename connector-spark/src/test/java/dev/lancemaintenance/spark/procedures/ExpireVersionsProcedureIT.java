package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.spark.SparkCleanupAction;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.testing.ExpiryRecordFiles;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.CompactedHistory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.expire_versions} then {@code CALL lance.cleanup} with the same policy leave the
 * files one SDK 7.0.0 cleanup leaves on a twin (the local engine's cases: {@code ExpireVersionsIT}
 * in module {@code testing}); a misspelt argument is an error with nothing deleted.
 */
class ExpireVersionsProcedureIT {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  @Test
  void expireThenCleanupInSqlLeaveWhatOneSdkCleanupLeaves() {
    LanceTableFixture table = CompactedHistory.write(LanceTableFixture.create(dir.resolve("t")));
    List<Long> versions = table.versions();
    List<String> sdkLeaves = TableTwins.filesTheSdkLeaves(table.root(), dir.resolve("twin"),
        OraclePolicy.builder().beforeTimestamp(Instant.now().plusSeconds(3_600)).beforeVersion(versions.get(versions.size() - 2)).build());
    String t = "table => '" + table.uri() + "'";
    List<String> before = FileTimes.listFiles(table.root());

    assertThatThrownBy(() -> SPARK.sql("CALL lance.expire_versions(" + t + ", older_than => '0s', retain_lst => 2)").collect())
        .hasMessageContaining("retain_lst");
    assertThat(FileTimes.listFiles(table.root())).as("files after the misspelt call").isEqualTo(before);
    List<Row> expired = SPARK.sql("CALL lance.expire_versions(" + t + ", older_than => '0s', retain_last => 2)").collectAsList();
    assertThat(ExpiryRecordFiles.of(table.root())).as("records of the expired versions").isNotEmpty();
    // As Spark jobs, not the local engine in the driver: executors read the records.
    SPARK.session().conf().set(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF, "0");
    try {
      SPARK.sql("CALL lance.cleanup(" + t + ", older_than => '0s', retain_last => 2)").collect();
    } finally {
      SPARK.session().conf().unset(SparkCleanupAction.DISTRIBUTE_ABOVE_CONF);
    }

    assertThat(expired).hasSize(1);
    assertThat(expired.get(0).<Long>getAs("old_versions")).isEqualTo(versions.size() - 2);
    assertThat(FileTimes.listFiles(table.root())).as("files left by expire then cleanup, and by the SDK").isEqualTo(sdkLeaves);
    assertThat(ExpiryRecordFiles.of(table.root())).as("records retired by the complete sweep").isEmpty();
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }
}
