package dev.lancemaintenance.format;

import dev.lancemaintenance.storage.TablePaths;
import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;

/**
 * One dataset of a Lance table: the main line, or a branch, whose own version history lives in
 * {@code tree/<name>/}. The one place that knows how a branch name becomes a directory and back.
 * The records shipped to tasks and subtasks carry it as it is: one string on the wire, whose
 * serialized form is fixed by {@link #serialVersionUID}.
 *
 * @param dir {@code ""} for the main line, {@code tree/<branch>} for a branch (the name may contain
 *     {@code /})
 */
public record DatasetRef(String dir) implements Serializable {
  private static final long serialVersionUID = 1L;

  /** The main line of the table. */
  public static final DatasetRef MAIN = new DatasetRef("");

  /** Where Lance keeps the branches' datasets, each in {@code tree/<name>}. */
  private static final String TREE_PREFIX = "tree/";

  public DatasetRef {
    Objects.requireNonNull(dir, "dir");
    if (!dir.isEmpty() && (!dir.startsWith(TREE_PREFIX) || dir.length() == TREE_PREFIX.length())) {
      throw new IllegalArgumentException("a dataset directory is \"\" or tree/<branch>: " + dir);
    }
  }

  /**
   * The dataset of the branch a user named, refusing a name that could leave {@code tree/}: empty,
   * starting or ending with {@code /}, or holding {@code ..}.
   */
  public static DatasetRef branch(String name) {
    Objects.requireNonNull(name, "branch");
    if (name.isEmpty() || name.startsWith("/") || name.endsWith("/") || name.contains("..")) {
      throw new IllegalArgumentException("not a branch name: \"" + name + "\"");
    }
    return new DatasetRef(TREE_PREFIX + name);
  }

  /**
   * The dataset of a branch as the table's refs name it ({@link Branch#dataset}): Lance's own name,
   * taken as written; the paths built from it are checked where they are listed and read.
   */
  static DatasetRef tree(String name) {
    return new DatasetRef(TREE_PREFIX + Objects.requireNonNull(name, "name"));
  }

  /** The dataset of {@code branch} when present, else the main line. */
  public static DatasetRef of(Optional<String> branch) {
    return branch.map(DatasetRef::branch).orElse(MAIN);
  }

  /** The branch this dataset is; empty for the main line. */
  public Optional<String> branchName() {
    return dir.isEmpty() ? Optional.empty() : Optional.of(dir.substring(TREE_PREFIX.length()));
  }

  /** A path in this dataset, table-relative: {@code name} below {@link #dir()}. */
  public String resolve(String name) {
    return TablePaths.join(dir, name);
  }

  /** A table-relative {@code path} relative to this dataset's directory, or null when it lies outside. */
  public String relativize(String path) {
    if (dir.isEmpty()) {
      return path;
    }
    return path.startsWith(dir) && path.length() > dir.length() && path.charAt(dir.length()) == '/'
        ? path.substring(dir.length() + 1)
        : null;
  }

  public boolean isMain() {
    return dir.isEmpty();
  }

  /** The table, and the branch when this is one, for messages: {@code branch b of s3a://t}. */
  public String describe(String table) {
    return branchName().map(name -> "branch " + name + " of " + table).orElse(table);
  }

  @Override
  public String toString() {
    return branchName().map(name -> "branch " + name).orElse("main");
  }
}
