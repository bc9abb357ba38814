package dev.lancemaintenance.testing;

import java.nio.file.Path;

/**
 * The smallest table whose cleanup removes data: append, append, overwrite, append (ten rows each).
 * Versions 1 and 2 read the first two data files, versions 3 and 4 the last two; before version 3,
 * versions 1 and 2 expire and with them the first two data files, and the table still reads 20 rows.
 */
public final class OverwrittenHistory {
  private OverwrittenHistory() {}

  /** Writes the four versions at {@code dir}. */
  public static LanceTableFixture write(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir);
    table.append(10);
    table.append(10);
    table.overwrite(10);
    table.append(10);
    return table;
  }
}
