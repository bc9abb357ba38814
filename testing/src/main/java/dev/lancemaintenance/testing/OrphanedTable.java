package dev.lancemaintenance.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The small table of the {@code remove_orphan_files} entry-point tests (CLI, Spark, Flink): three
 * SDK versions (two appends and a delete) whose files are all 30 days old, beside two fragments the
 * SDK wrote and never committed: one 10 days old, past the default window of 7 days, and one
 * written now. The full semantics are {@code RemoveOrphanFilesContract}'s.
 *
 * @param table the table
 * @param oldOrphan the table-relative path of the 10-day-old uncommitted data file
 * @param freshOrphan the table-relative path of the new one
 */
public record OrphanedTable(LanceTableFixture table, String oldOrphan, String freshOrphan) {
  /** Writes the table at {@code dir}. */
  public static OrphanedTable write(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir);
    table.append(10);
    table.append(10);
    table.deleteWhere("id % 2 = 0");
    table.shiftAllModificationTimes(Duration.ofDays(-30));
    String oldOrphan = table.writeUncommitted(5).get(0);
    table.setModificationTime(oldOrphan, Instant.now().minus(Duration.ofDays(10)));
    return new OrphanedTable(table, oldOrphan, table.writeUncommitted(5).get(0));
  }
}
