package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.format.FileKind;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class ResultRowsTest {
  private static final CleanupResult RESULT =
      new CleanupResult("file:/t", CleanupMode.EXECUTE, 12, new CleanupCounters(3, 4096, 2, 1, 0, 3, 3, 1, 0, 2), 250);

  @Test
  void counterColumnsAreTheNamedCountersInOrder() {
    assertThat(ResultRows.COUNTER_SCHEMA.fieldNames()).containsExactlyElementsOf(RESULT.namedCounters().keySet());
  }

  @Test
  void counterRowCarriesEveryNamedCounter() {
    Row row = ResultRows.counterRow(RESULT);

    assertThat(row.size()).isEqualTo(RESULT.namedCounters().size());
    int i = 0;
    for (long value : RESULT.namedCounters().values()) {
      assertThat(row.getLong(i++)).isEqualTo(value);
    }
  }

  @Test
  void counterInternalRowHoldsTheCountersInColumnOrder() {
    var row = ResultRows.counterInternalRow(RESULT);

    int i = 0;
    for (long value : RESULT.namedCounters().values()) {
      assertThat(row.getLong(i++)).isEqualTo(value);
    }
  }

  @Test
  void fileRowShowsKindAndReasonInSnakeCase() {
    Row row = ResultRows.fileRow(new CandidateFile("data/a.lance", FileKind.DATA, 77, RemovalReason.UNVERIFIED_OLDER_THAN_7D));

    assertThat(row.toSeq().mkString("|")).isEqualTo("data/a.lance|data|77|unverified_older_than_7d");
  }
}
