package dev.lancemaintenance.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small Node project kept as resources of module testing ({@code package.json} and a {@code
 * package-lock.json} that pin every package, plus its scripts): the first use in a JVM copies it
 * to a directory under {@code target/} and runs {@code npm install} there from the npm registry
 * (not {@code npm ci}: the registry serves native packages for linux-x64 only, so the lock files
 * lack other platforms' entries). Node is the machine's {@code node}.
 */
final class NodeProject {
  private NodeProject() {}

  /**
   * The installed project {@code name} (resources {@code <name>/<file>}), in the directory the
   * system property {@code dirProperty} names, else {@code target/<name>}; installs again when a
   * file changed or {@code installedMarker} (a path inside {@code node_modules}) is missing.
   */
  static Path install(String name, List<String> files, String installedMarker, String dirProperty) throws IOException {
    Path dir = Path.of(System.getProperty(dirProperty, "target/" + name)).toAbsolutePath();
    Files.createDirectories(dir);
    boolean changed = false;
    for (String file : files) {
      byte[] content;
      try (InputStream in = NodeProject.class.getClassLoader().getResourceAsStream(name + "/" + file)) {
        if (in == null) {
          throw new IllegalStateException("test resource " + name + "/" + file + " is missing");
        }
        content = in.readAllBytes();
      }
      Path target = dir.resolve(file);
      if (!Files.exists(target) || !Arrays.equals(Files.readAllBytes(target), content)) {
        Path temp = Files.createTempFile(dir, file, ".tmp");
        Files.write(temp, content);
        Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        changed = true;
      }
    }
    if (changed || !Files.exists(dir.resolve(installedMarker))) {
      npmInstall(name, dir);
    }
    return dir;
  }

  private static void npmInstall(String name, Path dir) throws IOException {
    Path log = dir.resolve("npm-install.log");
    Process npm = new ProcessBuilder("npm", "install", "--no-audit", "--no-fund", "--no-save")
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    int exit = waitFor(npm, name);
    if (exit != 0) {
      throw new IllegalStateException("npm install of " + name + " failed in " + dir + " (exit " + exit + "):\n"
          + Files.readString(log, StandardCharsets.UTF_8));
    }
  }

  /** Waits up to 10 minutes for a Node process of the project; kills it after that. */
  static int waitFor(Process process, String name) {
    try {
      if (!process.waitFor(10, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(name + " did not finish in 10 minutes");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name, e);
    }
  }
}
