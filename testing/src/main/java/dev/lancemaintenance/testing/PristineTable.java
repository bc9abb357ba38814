package dev.lancemaintenance.testing;

import java.nio.file.Path;
import java.util.TreeSet;

/**
 * A table as built, kept aside byte for byte (mtimes included) so that several runs, ours and the
 * SDK's, each start from the same files at the table's own path; see {@link TableTwins} for why
 * the path matters.
 *
 * @param table where the table lives and every run cleans it
 * @param copy the pristine copy
 * @param files the table's files as built, table-relative
 */
public record PristineTable(Path table, Path copy, TreeSet<String> files) {
  /** Copies {@code table} to the new directory {@code aside} and remembers its files. */
  public static PristineTable keep(Path table, Path aside) {
    TableTwins.copy(table, aside);
    return new PristineTable(table, aside, filesOf(table));
  }

  /** Puts the table back as built, at its own path. */
  public void restore() {
    TableTwins.restore(copy, table);
  }

  /** The table's files now, table-relative. */
  public TreeSet<String> currentFiles() {
    return filesOf(table);
  }

  /** The files of the table at {@code root}, table-relative, sorted. */
  public static TreeSet<String> filesOf(Path root) {
    return new TreeSet<>(LanceTableFixture.open(root).listFiles());
  }

  @Override
  public TreeSet<String> files() {
    return new TreeSet<>(files);
  }
}
