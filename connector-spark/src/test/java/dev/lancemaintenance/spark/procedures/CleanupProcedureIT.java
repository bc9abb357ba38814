package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.spark.ResultRows;
import dev.lancemaintenance.spark.SparkSessionPerClass;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.Leases;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.UndeletableFile;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CALL lance.cleanup(...)} through Spark 4's procedure catalog (or Spark 3.5's session
 * extension, on the 3.5 lines), on real Lance tables.
 */
class CleanupProcedureIT {
  /** Tests of what only Spark 4.1's procedure catalog has (SHOW PROCEDURES, DESCRIBE PROCEDURE). */
  static final String SPARK_4_1 = "spark-4.1";
  /** Spark 4.0 matches named arguments case-sensitively (TABLE => is an unknown argument there). */
  static final String ARGUMENT_NAMES_IN_ANY_CASE = "argument-names-in-any-case";

  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();

  @TempDir Path dir;

  /** Four appends and an overwrite: v1..v4 expire, and the data of v1..v4 goes with them. */
  private LanceTableFixture table() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    for (int i = 0; i < 4; i++) {
      table.append(10);
    }
    table.overwrite(10);
    return table;
  }

  private static Row single(String sql) {
    List<Row> rows = SPARK.sql(sql).collectAsList();
    assertThat(rows).as("rows of %s", sql).hasSize(1);
    return rows.get(0);
  }

  @Test
  void cleansWithNamedArgumentsAndReturnsTheCounterRow() {
    LanceTableFixture table = table();

    Row row = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s')");

    assertThat(row.schema().fieldNames()).containsExactly(ResultRows.COUNTER_SCHEMA.fieldNames());
    assertThat(row.<Long>getAs("old_versions")).isEqualTo(4L);
    assertThat(row.<Long>getAs("manifest_files_removed")).isEqualTo(4L);
    assertThat(row.<Long>getAs("data_files_removed")).isEqualTo(4L);
    assertThat(row.<Long>getAs("failed_deletes")).isZero();
    assertThat(row.<Long>getAs("read_version")).isEqualTo(5L);
    assertThat(table.versions()).containsExactly(5L);
  }

  @Test
  void anIncrementalCallKeepsALedgerAndAVerifiedOneAgreesWithIt() {
    LanceTableFixture table = table();
    single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', mode => 'incremental')");
    assertThat(table.root().resolve(dev.lancemaintenance.ledger.Ledger.DIR)).as("the ledger the call committed").isDirectory();
    table.append(10);

    Row row = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', mode => 'incremental', verify => true)");

    assertThat(row.<Long>getAs("old_versions")).isEqualTo(1L);
    assertThat(table.versions()).containsExactly(6L);
  }

  @Test
  void aModeThatIsNeitherFullNorIncrementalIsAnErrorAndDeletesNothing() {
    LanceTableFixture table = table();
    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', mode => 'fast')")
            .collectAsList())
        .hasMessageContaining("'mode'").hasMessageContaining("'full' or 'incremental'");
    assertThat(table.versions()).containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void aCallWhileAnotherRunHoldsTheTableLeaseFailsNamingItAndDeletesNothing() throws Exception {
    LanceTableFixture table = table();
    List<String> before = table.listFiles();
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
        TableLease held = Leases.holdElsewhere(storage, Instant.now(), Duration.ofDays(1))) {

      assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s')").collect())
          .hasMessageContaining("holds the table's lease: run elsewhere on host other-host (pid 4242)");
      assertThat(table.listFiles()).as("files").isEqualTo(before);
      assertThat(SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', dry_run => true)")
              .collectAsList()).as("a dry run beside the holder").isNotEmpty();
    }
    assertThat(single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s')").<Long>getAs("old_versions"))
        .as("once the lease is free").isEqualTo(4L);
  }

  @Test
  void theParametersAreTheOptionCatalogue() {
    List<String> names = SparkCleanupProcedure.parameters(org.apache.spark.sql.types.DataTypes.StringType).stream()
        .map(Parameter::name)
        .collect(Collectors.toList());
    List<String> expected = new java.util.ArrayList<>(CleanupOption.sqlNames());
    expected.add(0, "table");
    expected.add(expected.indexOf("branch"), "options");
    expected.add("file_list_view");

    assertThat(names).isEqualTo(expected);
  }

  @Test
  void aNullForAnArgumentThatDecidesWhatIsDeletedIsAnErrorAndDeletesNothing() {
    LanceTableFixture table = table();
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    for (CleanupOption option : CleanupOption.values()) {
      if (!option.changesWhatIsDeleted()) {
        continue;
      }
      String sql = "CALL lance.cleanup(table => '" + table.uri() + "', "
          + (option == CleanupOption.OLDER_THAN ? "" : "older_than => '0s', ") + option.sqlName() + " => NULL)";

      assertThatThrownBy(() -> SPARK.sql(sql).collectAsList()).as(sql)
          .hasMessageContaining(option.sqlName()).hasMessageContaining("NULL");
    }
    assertThatThrownBy(() -> SPARK.sql(
            "CALL lance.cleanup('" + table.uri() + "', '0s', 3, false, true, false, NULL)").collectAsList())
        .as("positional NULL").hasMessageContaining("dry_run");
    assertThat(new TreeSet<>(table.listFiles())).as("nothing deleted").isEqualTo(before);
  }

  @Test
  void aMisspeltOrRepeatedArgumentIsAnErrorAndDeletesNothing() {
    LanceTableFixture table = table();
    TreeSet<String> before = new TreeSet<>(table.listFiles());

    assertThatThrownBy(() -> SPARK.sql(
            "CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', dryrun => true)").collectAsList())
        .hasMessageContaining("dryrun");
    assertThatThrownBy(() -> SPARK.sql(
            "CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', dry_run => true, dry_run => false)")
            .collectAsList())
        .hasMessageContaining("dry_run");
    assertThat(new TreeSet<>(table.listFiles())).isEqualTo(before);
  }

  @Test
  void deleteUnverifiedWithAShortWindowIsRefusedUnlessAllowed() {
    LanceTableFixture table = table();
    TreeSet<String> before = new TreeSet<>(table.listFiles());
    String call = "CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', delete_unverified => true";

    assertThatThrownBy(() -> SPARK.sql(call + ")").collectAsList())
        .hasMessageContaining("retention guard").hasMessageContaining("allow_short_retention => true");
    assertThat(new TreeSet<>(table.listFiles())).isEqualTo(before);

    assertThat(single(call + ", allow_short_retention => true)").<Long>getAs("old_versions")).isEqualTo(4L);
  }

  @Test
  void theSessionCanLiftTheRetentionGuard() {
    LanceTableFixture table = table();
    SPARK.session().conf().set("spark.lance.cleanup.retentionCheck", "false");
    try {
      Row row = single(
          "CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', delete_unverified => true)");
      assertThat(row.<Long>getAs("old_versions")).isEqualTo(4L);
    } finally {
      SPARK.session().conf().unset("spark.lance.cleanup.retentionCheck");
    }
  }

  @Test
  void olderThanTakesTheGrammarOfTheTablesAutoCleanupConfig() {
    LanceTableFixture table = table();

    Row row = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '14days')");

    assertThat(row.<Long>getAs("old_versions")).as("nothing is 14 days old").isZero();
  }

  @Test
  void credentialsInTheTableUriAreRefusedWithoutRepeatingThem() {
    for (String dryRun : List.of("true", "false")) {
      assertThatThrownBy(() -> SPARK.sql(
              "CALL lance.cleanup(table => 's3a://AKIAEXAMPLE:SECRETVALUE@bucket/t.lance', dry_run => " + dryRun + ")")
              .collectAsList())
          .hasMessageContaining("credentials")
          .satisfies(e -> assertThat(stackText(e)).doesNotContain("SECRETVALUE").doesNotContain("AKIAEXAMPLE"));
    }
  }

  @Test
  void secretsInTheOptionsMapNeverAppearInTheError() {
    String missing = dir.resolve("missing.lance").toString();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + missing + "', dry_run => false,"
            + " options => map('fs.s3a.secret.key', 'SECRETVALUE', 'fs.s3a.access.key', 'AKIAEXAMPLE'))").collectAsList())
        .satisfies(e -> assertThat(stackText(e)).contains("missing.lance")
            .doesNotContain("SECRETVALUE").doesNotContain("AKIAEXAMPLE"));
  }

  private static String stackText(Throwable error) {
    java.io.StringWriter text = new java.io.StringWriter();
    error.printStackTrace(new java.io.PrintWriter(text));
    return text.toString();
  }

  @Test
  void aFailedDeleteShowsInTheCounterRowAndKeepsTheManifests() {
    LanceTableFixture table = table();
    // The transaction file of v1 (read version 0), which older_than 0s removes.
    Path v1Transaction =
        table.resolve(table.listFiles().stream().filter(p -> p.startsWith("_transactions/0-")).findFirst().orElseThrow());
    Row row;
    try (UndeletableFile ignored = UndeletableFile.make(v1Transaction)) {
      row = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s')");
    }

    assertThat(row.<Long>getAs("failed_deletes")).as("failed_deletes").isEqualTo(1L);
    assertThat(row.<Long>getAs("old_versions")).as("no manifest removed").isZero();
    assertThat(table.versions()).as("every version stays for the next run").containsExactly(1L, 2L, 3L, 4L, 5L);
  }

  @Test
  void cleansWithPositionalArguments() {
    LanceTableFixture table = table();

    Row row = single("CALL lance.cleanup('" + table.uri() + "', '0s', 3)");

    assertThat(row.<Long>getAs("old_versions")).as("before_version 3 keeps v3 and later").isEqualTo(2L);
    assertThat(table.versions()).containsExactly(3L, 4L, 5L);
  }

  @Test
  void answersUnderTheSystemNamespaceWithNamesInAnyCase() {
    LanceTableFixture table = table();

    Row row = single("CALL lance.SYSTEM.Cleanup(table => '" + table.uri() + "', older_than => '0s')");

    assertThat(row.<Long>getAs("old_versions")).isEqualTo(4L);
  }

  @Test
  @Tag(ARGUMENT_NAMES_IN_ANY_CASE)
  void takesArgumentNamesInAnyCase() {
    LanceTableFixture table = table();

    Row row = single("CALL lance.cleanup(TABLE => '" + table.uri() + "', Older_Than => '0s')");

    assertThat(row.<Long>getAs("old_versions")).isEqualTo(4L);
  }

  @Test
  void takesATimestampForOlderThan() {
    LanceTableFixture table = table();
    Instant cutoff = table.manifestTimestamp(3).plus(1, ChronoUnit.MILLIS);
    String literal = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(ZoneOffset.UTC).format(cutoff);

    SPARK.session().conf().set("spark.sql.session.timeZone", "UTC");
    Row row = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => TIMESTAMP '" + literal + "')");

    assertThat(row.<Long>getAs("old_versions")).as("v1..v3 are before the cut-off").isEqualTo(3L);
    assertThat(table.versions()).containsExactly(4L, 5L);
  }

  @Test
  void dryRunListsExactlyTheFilesTheRealRunDeletes() {
    LanceTableFixture table = table();
    Set<String> before = new TreeSet<>(table.listFiles());

    List<Row> rows = SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', dry_run => true)").collectAsList();
    Set<String> listed = rows.stream().map(row -> row.<String>getAs("path")).collect(Collectors.toCollection(TreeSet::new));
    assertThat(new TreeSet<>(table.listFiles())).as("a dry run deletes nothing").isEqualTo(before);

    single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s')");
    Set<String> deleted = new TreeSet<>(before);
    deleted.removeAll(table.listFiles());

    assertThat(listed).as("dry-run rows").hasSize(rows.size()).isEqualTo(deleted);
    assertThat(rows.get(0).schema().fieldNames()).containsExactly("path", "kind", "bytes", "reason");
  }

  @Test
  void maxDeletesCapsTheRunAndRetainLastKeepsTheNewest() {
    LanceTableFixture table = table();

    Row capped = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', retain_last => 2, max_deletes => 1)");
    Row rest = single("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', retain_last => 2)");

    assertThat(capped.<Long>getAs("deferred_deletes")).as("deferred_deletes of the capped run").isPositive();
    assertThat(capped.<Long>getAs("old_versions")).as("manifests of the capped run").isZero();
    assertThat(rest.<Long>getAs("old_versions")).as("all but the 2 newest").isEqualTo(3L);
    assertThat(table.versions()).containsExactly(4L, 5L);
  }

  @Test
  void rejectsAZeroMaxDeletesNamingTheParameter() {
    LanceTableFixture table = table();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => '0s', max_deletes => 0)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_deletes");
  }

  @Test
  void rejectsAZeroMaxConcurrentDeletesNamingTheParameter() {
    LanceTableFixture table = table();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', max_concurrent_deletes => 0)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max_concurrent_deletes");
  }

  @Test
  void rejectsAnUnreadableOlderThanNamingTheParameter() {
    LanceTableFixture table = table();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', older_than => 'soon')"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("older_than")
        .hasMessageContaining("soon");
  }

  @Test
  void rejectsANegativeRateLimitNamingTheParameter() {
    LanceTableFixture table = table();

    assertThatThrownBy(() -> SPARK.sql("CALL lance.cleanup(table => '" + table.uri() + "', delete_rate_limit => -1)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("delete_rate_limit");
  }

  @Test
  @Tag(SPARK_4_1)
  void showsItsProcedures() {
    List<String> names =
        SPARK.sql("SHOW PROCEDURES IN lance").collectAsList().stream()
            .map(Row::toString)
            .toList();

    assertThat(names).anySatisfy(name -> assertThat(name).contains("cleanup"));
  }

  @Test
  @Tag(SPARK_4_1)
  void describesTheCleanupProcedure() {
    String description =
        SPARK.sql("DESCRIBE PROCEDURE lance.cleanup").collectAsList().stream()
            .map(Row::toString)
            .collect(Collectors.joining("\n"));

    assertThat(description).contains("cleanup").contains("cleanup_with_policy");
  }
}
