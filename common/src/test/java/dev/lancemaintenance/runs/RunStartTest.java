package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run record names its dataset {@code main} or by the branch's name, as records written before
 * {@link DatasetRef} did: the lines are written out literally, so old records still read.
 */
class RunStartTest {
  private static final Instant STARTED = Instant.parse("2026-12-01T10:00:00Z");

  @Test
  void aBranchRunIsRecordedByTheBranchName() {
    RunStart start = new RunStart("run-1", "owner", "file:/t", DatasetRef.branch("team/exp"), "local", "cleanup", STARTED, "p");

    assertThat(start.fields()).containsEntry("dataset", "team/exp");
    assertThat(RunStart.of(start.fields())).isEqualTo(start);
  }

  @Test
  void recordsWrittenBeforeReadAsTheirDataset() {
    assertThat(RunStart.of(fields("main")).dataset()).isEqualTo(DatasetRef.MAIN);
    assertThat(RunStart.of(fields("b1")).dataset()).isEqualTo(DatasetRef.branch("b1"));
    assertThat(RunStart.of(fields("main")).datasetName()).isEqualTo("main");
  }

  private static Map<String, String> fields(String dataset) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("record", "start");
    fields.put("run_id", "run-1");
    fields.put("lease_owner", "owner");
    fields.put("table", "file:/t");
    fields.put("dataset", dataset);
    fields.put("engine", "local");
    fields.put("action", "cleanup");
    fields.put("started_at", "2026-12-01T10:00:00Z");
    fields.put("policy", "p");
    return fields;
  }
}
