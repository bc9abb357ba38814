package dev.lancemaintenance.runs;

import dev.lancemaintenance.format.DatasetRef;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The record a run writes beside its plan, before it writes or deletes anything in the table: who it
 * is and what it was asked to do.
 *
 * @param runId the run's id, unique
 * @param leaseOwner the owner of the table lease the run holds, by which {@code history} tells a
 *     running run from one that died
 * @param table the table, redacted
 * @param dataset the dataset cleaned, written as {@link #datasetName}
 * @param engine {@code local}, {@code spark} or {@code flink}
 * @param action what the run does ({@code cleanup})
 * @param startedAt when it started
 * @param policy the policy and settings it runs with, as its log prints them; never storage options
 */
public record RunStart(String runId, String leaseOwner, String table, DatasetRef dataset, String engine, String action, Instant startedAt, String policy) {
  /** The main line's name in a record; any other name is a branch's. */
  private static final String MAIN = "main";

  public RunStart {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(leaseOwner, "leaseOwner");
    if (!runId.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("a run id is letters, digits, dots, dashes and underscores: " + runId);
    }
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(engine, "engine");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(policy, "policy");
  }

  /** The dataset as records and {@code history} write it: {@code main} or the branch's name. */
  public String datasetName() {
    return dataset.branchName().orElse(MAIN);
  }

  Map<String, String> fields() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("record", "start");
    fields.put("run_id", runId);
    fields.put("lease_owner", leaseOwner);
    fields.put("table", table);
    fields.put("dataset", datasetName());
    fields.put("engine", engine);
    fields.put("action", action);
    fields.put("started_at", startedAt.toString());
    fields.put("policy", policy);
    return fields;
  }

  static RunStart of(Map<String, String> fields) {
    RecordFields read = new RecordFields(fields, "start");
    return new RunStart(
        read.text("run_id"), read.text("lease_owner"), read.text("table"), datasetNamed(read.text("dataset")), read.text("engine"), read.text("action"),
        read.instant("started_at"), read.text("policy"));
  }

  private static DatasetRef datasetNamed(String name) {
    return name.equals(MAIN) ? DatasetRef.MAIN : DatasetRef.branch(name);
  }
}
