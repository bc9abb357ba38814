package dev.lancemaintenance.testing;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

/**
 * The storage report's table, for every engine's report tests, written by the official SDK: five
 * versions (appends, a delete), a tag on version 2, a branch from version 3 with its own append,
 * and two unreferenced data files, one 40 days old and one 2 days old.
 */
public final class StorageReportTable {
  public static final int PLANTED_BYTES = 1_000;

  private StorageReportTable() {}

  public static LanceTableFixture write(Path root) {
    LanceTableFixture table = LanceTableFixture.create(root);
    table.append(20);
    table.append(20);
    table.append(20);
    table.deleteWhere("id < 5");
    table.append(20);
    table.tag("keep", 2);
    table.createBranch("b1", 3).append(5);
    Instant now = Instant.now();
    table.plant("data/abandoned-old.lance", new byte[PLANTED_BYTES], now.minus(Duration.ofDays(40)));
    table.plant("data/abandoned-young.lance", new byte[PLANTED_BYTES], now.minus(Duration.ofDays(2)));
    return table;
  }
}
