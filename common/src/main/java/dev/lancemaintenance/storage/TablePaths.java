package dev.lancemaintenance.storage;

/**
 * Table-relative paths: forward slashes, no leading or trailing slash, no empty, {@code .} or
 * {@code ..} segments. Every path that crosses a stage is checked here once, so later code can
 * compare paths as plain strings.
 */
public final class TablePaths {
  private TablePaths() {}

  /** Returns {@code path} if it is a valid table-relative path, else throws naming the table. */
  public static String checkRelative(String table, String path) {
    if (path.isEmpty()) {
      throw new PathEscapeException(table, path, "empty path");
    }
    if (path.startsWith("/") || path.endsWith("/")) {
      throw new PathEscapeException(table, path, "leading or trailing '/'");
    }
    if (path.indexOf('\\') >= 0) {
      throw new PathEscapeException(table, path, "backslash in path");
    }
    int start = 0;
    while (start <= path.length()) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = path.length();
      }
      String segment = path.substring(start, end);
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new PathEscapeException(table, path, "segment '" + segment + "' is not allowed");
      }
      start = end + 1;
    }
    return path;
  }

  /** Joins a table-relative directory ("" for the root) and a relative child. */
  public static String join(String dir, String child) {
    if (dir.isEmpty()) {
      return child;
    }
    if (child.isEmpty()) {
      return dir;
    }
    return dir + "/" + child;
  }

  /** The last segment of a path. */
  public static String fileName(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** The directory a path is in ("" for the root). */
  public static String parent(String path) {
    int slash = path.lastIndexOf('/');
    return slash < 0 ? "" : path.substring(0, slash);
  }
}
