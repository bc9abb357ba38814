package dev.lancemaintenance.format;

import dev.lancemaintenance.storage.StorageException;
import java.util.function.Supplier;

/**
 * Reads a small JSON file that a Lance writer rewrites while we read it: the latest-version hint
 * after each commit, a tag when it is moved. A read can see such a file cut off (seen with the SDK
 * on a local disk: an empty or half-written hint), so one that does not parse is read again, a few
 * times over about a third of a second, before it is called corrupt. A cut-off JSON object never
 * parses (it is not closed), so reading again never turns damage into a wrong value: it only waits
 * for the writer, and a file that stays unreadable still fails the run before any delete.
 */
final class RewrittenFile {
  /** The pause before each further read of a file that did not parse. */
  static final long[] PAUSES_MILLIS = {10, 30, 90, 200};

  private RewrittenFile() {}

  /**
   * What {@code readAndParse} returns once it no longer throws {@link CorruptTableException}, or
   * its last failure when every read failed.
   *
   * @param path the file, for the error when a pause is interrupted
   */
  static <T> T read(String path, Supplier<T> readAndParse) {
    for (int attempt = 0; ; attempt++) {
      try {
        return readAndParse.get();
      } catch (CorruptTableException e) {
        if (attempt == PAUSES_MILLIS.length) {
          throw e;
        }
        pause(PAUSES_MILLIS[attempt], path);
      }
    }
  }

  private static void pause(long millis, String path) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("read again", path, e);
    }
  }
}
