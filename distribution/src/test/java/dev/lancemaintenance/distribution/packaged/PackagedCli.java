package dev.lancemaintenance.distribution.packaged;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code bin/lance-maintenance} of a built layout (the unpacked distribution or the checkout), run
 * as a user runs it: a separate process through the script, with the JVM and classpath it sets up.
 */
final class PackagedCli {
  /** What one run printed. */
  record Run(int exit, String out, String err) {
    Run assertSucceeded() {
      if (exit != 0) {
        throw new AssertionError("bin/lance-maintenance exited " + exit + "\nstdout:\n" + out + "\nstderr:\n" + err);
      }
      return this;
    }
  }

  private final Path home;

  private PackagedCli(Path home) {
    this.home = home;
  }

  /** The layout whose {@code bin/lance-maintenance} this runs. */
  static PackagedCli at(Path home) {
    if (!Files.isExecutable(home.resolve("bin/lance-maintenance"))) {
      throw new IllegalStateException("no executable bin/lance-maintenance under " + home);
    }
    return new PackagedCli(home);
  }

  /** The source checkout this module belongs to, after {@code package}. */
  static PackagedCli checkout() {
    return at(Path.of(System.getProperty("lance.checkout")).toAbsolutePath().normalize());
  }

  /**
   * Unpacks {@code lance-maintenance-<version>-bin.tar.gz}, which {@code package} built, into
   * {@code dir} with the system's tar, as a user would.
   */
  static PackagedCli unpackDistribution(Path dir) {
    Path tarball = Path.of(System.getProperty("lance.distribution"));
    if (!Files.isRegularFile(tarball)) {
      throw new IllegalStateException(tarball + " is missing: run the distribution's tests after package (mvn verify)");
    }
    run(List.of("tar", "-xzf", tarball.toString(), "-C", dir.toString()), dir, Map.of()).assertSucceeded();
    String top = tarball.getFileName().toString().replace("-bin.tar.gz", "");
    return at(dir.resolve(top));
  }

  Path home() {
    return home;
  }

  Run run(List<String> args) {
    return run(args, Map.of());
  }

  /**
   * Runs {@code bin/lance-maintenance args} from a neutral working directory, {@code env} added.
   * The class-data archives go beside the layout unless {@code env} says where, never into the
   * user's {@code ~/.cache}: each unpacked distribution is a new class path, so a new archive.
   */
  Run run(List<String> args, Map<String, String> env) {
    List<String> command = new ArrayList<>();
    command.add(home.resolve("bin/lance-maintenance").toString());
    command.addAll(args);
    Map<String, String> withCache = new HashMap<>(env);
    withCache.putIfAbsent("LANCE_MAINTENANCE_CACHE", defaultCache().toString());
    return run(command, home, withCache);
  }

  /** Where a run's class-data archives go by default: beside an unpacked layout, in target/ of a checkout. */
  Path defaultCache() {
    return Files.isDirectory(home.resolve("lib"))
        ? home.resolveSibling(home.getFileName() + "-cds")
        : home.resolve("distribution/target/cds-cache");
  }

  private static Run run(List<String> command, Path workingDir, Map<String, String> env) {
    ProcessBuilder builder = new ProcessBuilder(command).directory(workingDir.toFile());
    builder.environment().putAll(env);
    try {
      Path out = Files.createTempFile("lance-cli", ".out");
      Path err = Files.createTempFile("lance-cli", ".err");
      try {
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
          process.destroyForcibly();
          throw new AssertionError("still running after 5 minutes: " + command);
        }
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted running " + command, e);
    }
  }
}
