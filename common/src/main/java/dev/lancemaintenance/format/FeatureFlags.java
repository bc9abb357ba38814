package dev.lancemaintenance.format;

/**
 * Reader feature flags of a manifest: a bit set of features a reader must understand. Lance's rule
 * is that a reader refuses a table with a bit it does not know, and so do we, because an unknown
 * feature may reference files we would not see.
 */
final class FeatureFlags {
  /** Deletion files present. */
  static final long DELETION_FILES = 1;
  /** Row ids are stable and stored with the fragments. */
  static final long STABLE_ROW_IDS = 2;
  /** Lance file format v2 (deprecated marker). */
  static final long V2_FORMAT = 4;
  /** Table config present. */
  static final long TABLE_CONFIG = 8;
  /** Files may live under other base paths. */
  static final long BASE_PATHS = 16;
  /** Transaction files are not written. */
  static final long NO_TRANSACTION_FILES = 32;
  static final long UNDERSTOOD =
      DELETION_FILES | STABLE_ROW_IDS | V2_FORMAT | TABLE_CONFIG | BASE_PATHS | NO_TRANSACTION_FILES;

  private FeatureFlags() {}

  /** Throws when {@code readerFlags} has a bit this reader does not understand. */
  static void checkReadable(String table, String file, long readerFlags) {
    long unknown = readerFlags & ~UNDERSTOOD;
    if (unknown != 0) {
      throw new UnsupportedFeatureException(table, file, "reader feature flags "
          + Long.toUnsignedString(unknown) + " (all reader flags: " + Long.toUnsignedString(readerFlags) + ")");
    }
  }
}
