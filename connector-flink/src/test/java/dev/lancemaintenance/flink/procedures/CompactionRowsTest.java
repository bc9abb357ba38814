package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.compaction.CompactResult;
import dev.lancemaintenance.compaction.CompactionCounters;
import dev.lancemaintenance.compaction.OptimizeResult;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The ROW types of sys.cleanup, sys.compact, sys.optimize and sys.optimize_all spell the results' column names, in order. */
class CompactionRowsTest {
  private static List<String> fieldNames(String rowType) {
    String inner = rowType.substring("ROW<".length(), rowType.length() - 1);
    return Arrays.stream(inner.split(",")).map(field -> field.trim().split(" ")[0]).toList();
  }

  @Test
  void compactRowNamesTheCompactResultCounters() {
    CompactResult result = new CompactResult("t", 1, 3, 2, 1, new CompactionCounters(4, 1, 4, 1, 100), 5);
    assertThat(fieldNames(ResultRows.COMPACT_ROW)).containsExactlyElementsOf(result.namedCounters().keySet());
  }

  @Test
  void optimizeRowNamesTheOptimizeResultCounters() {
    OptimizeResult result =
        new OptimizeResult(
            "t", CleanupMode.EXECUTE, 2, 8, Optional.empty(),
            new CleanupResult("t", CleanupMode.EXECUTE, 3, CleanupCounters.ZERO, 1, MarkMode.FULL, 3), 9);
    assertThat(fieldNames(ResultRows.OPTIMIZE_ROW)).containsExactlyElementsOf(result.namedCounters().keySet());
  }

  @Test
  void optimizeAllRowIsTableStatusTheOptimizeCountersAndError() {
    List<String> expected = new java.util.ArrayList<>(List.of("`table`", "`status`"));
    expected.addAll(OptimizeResult.counterNames());
    expected.add("`error`");
    assertThat(fieldNames(ResultRows.FLEET_OPTIMIZE_ROW)).containsExactlyElementsOf(expected);
  }

  @Test
  void cleanupRowNamesTheCleanupResultRow() {
    assertThat(fieldNames(ResultRows.COUNTERS_ROW)).containsExactlyElementsOf(CleanupResult.rowNames());
  }
}
