package dev.lancemaintenance.compaction;

import java.util.function.Supplier;

/**
 * Checks that the Lance SDK can be used before anything calls it, so that a missing jar or native
 * library is one clear error instead of a {@link NoClassDefFoundError} from deep inside a task.
 * This class itself names no SDK type.
 */
final class LanceSdk {
  private static final String PROBE = "org.lance.compaction.Compaction";

  private LanceSdk() {}

  /** Throws {@link LanceSdkMissingException} unless the SDK's classes are on the classpath. */
  static void require(String action, String table) {
    try {
      // Not initialised: initialising would load the native library, which the first real call does.
      Class.forName(PROBE, false, LanceSdk.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      throw new LanceSdkMissingException(action, table, "the Lance SDK is not on the classpath (" + PROBE + ")", e);
    }
  }

  /**
   * Runs {@code body}, which calls the SDK, after {@link #require}; a native library that does not
   * load (wrong platform, missing system library) becomes the same clear error.
   */
  static <T> T call(String action, String table, Supplier<T> body) {
    require(action, table);
    try {
      return body.get();
    } catch (LinkageError e) {
      throw new LanceSdkMissingException(action, table, "the Lance SDK did not load (" + e + ")", e);
    }
  }
}
