package dev.lancemaintenance.runs;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The record a run writes when it returns or fails.
 *
 * @param runId the run's id, as in its {@link RunStart}
 * @param endedAt when it ended
 * @param state {@link RunState#FINISHED} or {@link RunState#FAILED}
 * @param stage the last stage it entered ({@code "6/6 release"}), empty when it failed before the first
 * @param markMode how it marked: {@code full}, {@code incremental} or {@code verify}
 * @param manifestsRead manifests it decoded (the result's {@code manifests_read}); empty when it failed
 *     before the mark or on an engine that counts them only at the end (Flink)
 * @param counters its counters under the result's names ({@code CleanupResult.namedCounters()}); on
 *     failure, the files removed and bytes freed so far
 * @param error the one-line error of a failed run, empty otherwise
 * @param fileParts the parts its sweep tasks wrote under its {@code .files} directory ({@link
 *     RecordedFiles}), counted by name; empty unless it ran with {@code record_files}
 * @param resume whether it resumed a dead run's sweep ({@code resumed from run-...}) or started
 *     over and why ({@code started over: ...}); empty when there was no dead run to resume
 */
public record RunEnd(
    String runId, Instant endedAt, RunState state, String stage, String markMode, OptionalLong manifestsRead,
    Map<String, Long> counters, String error, OptionalLong fileParts, String resume) {
  private static final String COUNTER = "counter.";

  public RunEnd {
    Objects.requireNonNull(runId, "runId");
    Objects.requireNonNull(endedAt, "endedAt");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(markMode, "markMode");
    Objects.requireNonNull(manifestsRead, "manifestsRead");
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(fileParts, "fileParts");
    Objects.requireNonNull(resume, "resume");
    if (state != RunState.FINISHED && state != RunState.FAILED) {
      throw new IllegalArgumentException("a run ends finished or failed, not " + state.label());
    }
    counters = Map.copyOf(counters);
  }

  Map<String, String> fields() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("record", "end");
    fields.put("run_id", runId);
    fields.put("ended_at", endedAt.toString());
    fields.put("state", state.label());
    fields.put("stage", stage);
    fields.put("mark_mode", markMode);
    if (manifestsRead.isPresent()) {
      fields.put("manifests_read", Long.toString(manifestsRead.getAsLong()));
    }
    new TreeMap<>(counters).forEach((name, value) -> fields.put(COUNTER + name, Long.toString(value)));
    fields.put("error", error);
    if (fileParts.isPresent()) {
      fields.put("file_parts", Long.toString(fileParts.getAsLong()));
    }
    if (!resume.isEmpty()) {
      fields.put("resume", resume);
    }
    return fields;
  }

  static RunEnd of(Map<String, String> fields) {
    RecordFields read = new RecordFields(fields, "end");
    Map<String, Long> counters = new LinkedHashMap<>();
    fields.forEach((key, value) -> {
      if (key.startsWith(COUNTER)) {
        counters.put(key.substring(COUNTER.length()), read.number(key));
      }
    });
    return new RunEnd(
        read.text("run_id"), read.instant("ended_at"), RunState.ofLabel(read.text("state")), read.text("stage"),
        read.text("mark_mode"),
        optional(read, "manifests_read"), counters, read.text("error"), optional(read, "file_parts"),
        read.has("resume") ? read.text("resume") : "");
  }

  private static OptionalLong optional(RecordFields read, String key) {
    return read.has(key) ? OptionalLong.of(read.number(key)) : OptionalLong.empty();
  }
}
