package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.spark.SparkTestSession;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.remove_orphan_files(...)} on Spark 4.1 (the semantics are the contract's, {@code
 * LocalRemoveOrphanFilesIT}): a table whose files are all 30 days old, beside an uncommitted SDK
 * write 10 days old and a fresh one.
 */
class RemoveOrphanFilesProcedureIT {
  private static SparkSession spark;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.start();
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @Test
  void listsThenRemovesTheOldOrphanAndRefusesAnOptionThatChoosesVersions() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(10);
    table.append(10);
    table.shiftAllModificationTimes(Duration.ofDays(-30));
    String orphan = table.writeUncommitted(5).get(0);
    table.setModificationTime(orphan, Instant.now().minus(Duration.ofDays(10)));
    String fresh = table.writeUncommitted(5).get(0);
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    String call = "CALL lance.remove_orphan_files(table => '" + table.uri() + "'";

    List<Row> listed = spark.sql(call + ", dry_run => true)").collectAsList();
    assertThatThrownBy(() -> spark.sql(call + ", before_version => 2)").collect())
        .hasMessageContaining("before_version");
    assertThat(new TreeSet<>(table.listFiles())).as("files after the dry run and the refused call").isEqualTo(before);
    List<Row> counters = spark.sql(call + ")").collectAsList();

    assertThat(listed).as("the dry run's rows").singleElement()
        .satisfies(row -> assertThat(row.<String>getAs("path")).isEqualTo(orphan));
    assertThat(counters).singleElement().satisfies(row -> {
      assertThat(row.<Long>getAs("data_files_removed")).as("data_files_removed").isEqualTo(1L);
      assertThat(row.<Long>getAs("old_versions")).as("old_versions").isZero();
    });
    before.remove(orphan);
    assertThat(new TreeSet<>(table.listFiles())).as("files after the call").isEqualTo(before).contains(fresh);
    KeptManifests.assertEveryManifestReadsBack(table.root());
  }
}
