package dev.lancemaintenance.runs;

import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;

/** The table the run-record tests clean. */
final class RunTables {
  private RunTables() {}

  /** Three appends and an overwrite, at {@code dir/t.lance}: v1..v3 expire with their data and transaction files. */
  static LanceTableFixture threeVersionsToExpire(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.append(5);
    table.overwrite(5);
    return table;
  }
}
