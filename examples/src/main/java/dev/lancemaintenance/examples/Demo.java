package dev.lancemaintenance.examples;

import dev.lancemaintenance.cli.MaintenanceCli;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The README's first command: writes a demo table with the official Lance writer, shows it, cleans
 * it up (every version but the latest), and shows the bytes on disk before and after.
 */
public final class Demo {
  private Demo() {}

  static int run(List<String> args, PrintStream out, PrintStream err) {
    Path root = Paths.get(args.isEmpty() ? "demo/demo.lance" : args.get(0)).toAbsolutePath().normalize();
    deleteRecursively(root);
    long latest = DemoTable.write(root, 12, 100);
    String uri = root.toString();
    out.printf("Wrote %s with the official Lance writer: %d versions%n%n", uri, latest);
    int inspected = MaintenanceCli.execute(List.of("inspect", uri), out, err);
    if (inspected != 0) {
      return inspected;
    }
    long before = bytesOnDisk(root);
    out.printf("%nCleaning up every version but the latest (older_than 0s):%n");
    int cleaned = MaintenanceCli.execute(List.of("cleanup", uri, "--older-than", "0s"), out, err);
    long after = bytesOnDisk(root);
    out.printf("%nBytes on disk: %,d before, %,d after (%,d reclaimed)%n", before, after, before - after);
    return cleaned;
  }

  static long bytesOnDisk(Path root) {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(Demo::size).sum();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot remove the previous demo table " + root, e);
    }
  }
}
