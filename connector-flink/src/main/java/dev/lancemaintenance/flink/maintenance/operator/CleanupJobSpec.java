package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CleanupSettings;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Objects;

/**
 * How one cleanup job is built, besides its plan.
 *
 * @param table the table
 * @param storageFactory opens the table's storage in each subtask
 * @param settings mode, delete concurrency and rate
 * @param report whether removed files travel to the client
 * @param uidSuffix appended to every operator uid, so two cleanups can live in one job graph
 * @param startMillis when the client started the run, for the duration metric
 * @param recordedFiles where the sweep subtasks record the files they delete ({@code record_files}),
 *     null for nowhere
 * @param decisionRecord where the decide subtasks record what they decided and the gate the plan,
 *     null for nowhere (a dry run)
 * @param resumed whether the job resumes a dead run's sweep: its listings are that run's decided
 *     parts, and the referenced-files gate is that run's ({@code CleanupRun.referencedFilesGate})
 */
public record CleanupJobSpec(
    TableLocation table,
    TableStorageFactory storageFactory,
    CleanupSettings settings,
    FileReport report,
    String uidSuffix,
    long startMillis,
    RecordedFiles recordedFiles,
    RecordPlan.DecisionRecord decisionRecord,
    boolean resumed) {
  public CleanupJobSpec {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(storageFactory, "storageFactory");
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(report, "report");
    Objects.requireNonNull(uidSuffix, "uidSuffix");
  }

  /** A stable operator uid: stage name plus suffix. */
  String uid(String stage) {
    return "lance-cleanup-" + stage + (uidSuffix.isEmpty() ? "" : "-" + uidSuffix);
  }

  /** An operator name for the web UI and logs: stage and (redacted) table. */
  String name(String stage) {
    return "lance cleanup " + stage + " " + table;
  }
}
