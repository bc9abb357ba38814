/**
 * Run records: what each run that deletes did, kept beside the table lease and the ledger under
 * {@code _maintenance/runs/}, read back as the table's maintenance history ({@code history},
 * {@code lance.maintenance_history}).
 *
 * <p>Rules of the package: a record is written by the run on its driver, never by a task, with one
 * exception: the parts of {@code record_files} ({@link dev.lancemaintenance.runs.RecordedFiles}),
 * which each sweep task writes as it deletes so that no list of paths reaches the driver; a
 * record that cannot be written is logged and never fails the run; a record that cannot be read is
 * skipped with a warning naming its file and never blocks a run; nothing here holds a credential
 * (the options recorded are the policy and settings, never the storage configuration).
 */
package dev.lancemaintenance.runs;
