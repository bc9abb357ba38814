package dev.lancemaintenance.storage;

import java.util.OptionalLong;

/**
 * Names of a chain of files numbered by generation, {@code <prefix><19 digits>}, each created once
 * with {@link TableStorage#createIfAbsent} and never changed: the highest number is the current
 * one. The table lease and the maintenance ledger's commits are such chains; zero-padding keeps
 * listings in generation order where a store lists lexicographically.
 */
public final class Generations {
  private static final int DIGITS = 19;

  private Generations() {}

  /** The file name of {@code generation} in the chain {@code prefix}. */
  public static String fileName(String prefix, long generation) {
    return prefix + String.format("%0" + DIGITS + "d", generation);
  }

  /** The generation a path's last segment names in the chain {@code prefix}; empty for any other file. */
  public static OptionalLong of(String path, String prefix) {
    String name = lastSegment(path);
    if (!name.startsWith(prefix)) {
      return OptionalLong.empty();
    }
    String digits = name.substring(prefix.length());
    if (digits.isEmpty() || digits.length() > DIGITS || !digits.chars().allMatch(Character::isDigit)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseLong(digits));
  }

  /** The last segment of a table-relative path. */
  public static String lastSegment(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
