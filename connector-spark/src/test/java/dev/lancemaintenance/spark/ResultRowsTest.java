package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.format.FileKind;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class ResultRowsTest {
  private static final CleanupResult RESULT =
      new CleanupResult("file:/t", CleanupMode.EXECUTE, 12, new CleanupCounters(3, 4096, 2, 1, 0, 3, 3, 1, 0, 2), 250,
          MarkMode.INCREMENTAL, 7);

  @Test
  void counterColumnsAreTheResultRowInOrder() {
    assertThat(ResultRows.COUNTER_SCHEMA.fieldNames()).containsExactlyElementsOf(RESULT.row().keySet());
  }

  @Test
  void counterRowCarriesEveryNamedCounter() {
    Row row = ResultRows.counterRow(RESULT);

    assertThat(row.size()).isEqualTo(RESULT.row().size());
    int i = 0;
    for (long value : RESULT.namedCounters().values()) {
      assertThat(row.getLong(i++)).isEqualTo(value);
    }
    assertThat(row.getString(i++)).as("mark_mode").isEqualTo("incremental");
    assertThat(row.getLong(i)).as("manifests_read").isEqualTo(7);
  }

  @Test
  void counterInternalRowHoldsTheCountersInColumnOrder() {
    var row = ResultRows.counterInternalRow(RESULT);

    int i = 0;
    for (long value : RESULT.namedCounters().values()) {
      assertThat(row.getLong(i++)).isEqualTo(value);
    }
    assertThat(row.getUTF8String(i++).toString()).as("mark_mode").isEqualTo("incremental");
    assertThat(row.getLong(i)).as("manifests_read").isEqualTo(7);
  }

  @Test
  void fileRowShowsKindAndReasonInSnakeCase() {
    Row row = ResultRows.fileRow(new CandidateFile("data/a.lance", FileKind.DATA, 77, RemovalReason.UNVERIFIED_OLDER_THAN_7D));

    assertThat(row.toSeq().mkString("|")).isEqualTo("data/a.lance|data|77|unverified_older_than_7d");
  }
}
