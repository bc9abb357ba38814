package dev.lancemaintenance.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file that no delete can remove, not even root's (permission bits do not stop root): the ext4
 * immutable attribute, {@code chattr +i}. Cleared on close, so the temporary directory can go.
 * Making it checks that a delete really fails, so a file system without the attribute fails the
 * test instead of letting it pass for the wrong reason.
 */
public final class UndeletableFile implements AutoCloseable {
  private final Path file;

  private UndeletableFile(Path file) {
    this.file = file;
  }

  public static UndeletableFile make(Path file) {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    chattr("+i", file);
    UndeletableFile undeletable = new UndeletableFile(file);
    try {
      Files.delete(file);
    } catch (IOException expected) {
      return undeletable;
    }
    try {
      Files.write(file, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    throw new IllegalStateException("chattr +i did not make " + file + " undeletable on this file system");
  }

  @Override
  public void close() {
    chattr("-i", file);
  }

  private static void chattr(String flag, Path file) {
    try {
      Process process = new ProcessBuilder("chattr", flag, file.toString()).inheritIO().start();
      if (process.waitFor() != 0) {
        throw new IllegalStateException("chattr " + flag + " " + file + " failed: the test needs ext4 and root");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
