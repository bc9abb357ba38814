package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.testing.ConformanceScenarios;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.lance.Dataset;

/**
 * A digest of what the conformance references depend on: the testing module's classes (scenarios,
 * policies, the contract) and the SDK jar's name. The same whether the module's classes come from
 * its {@code target/classes} (its own tests) or from its jar (every other module's).
 */
final class CodeDigest {
  private CodeDigest() {}

  static String ofTestingModule() {
    MessageDigest digest = FileDigest.sha256();
    classesOf(location(ConformanceScenarios.class)).forEach((name, bytes) -> {
      digest.update(name.getBytes(StandardCharsets.UTF_8));
      digest.update(bytes);
    });
    digest.update(location(Dataset.class).getFileName().toString().getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(digest.digest(), 0, 8);
  }

  private static Path location(Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("cannot locate the classes of " + type.getName(), e);
    }
  }

  /** Class file name to bytes, sorted by name. */
  private static TreeMap<String, byte[]> classesOf(Path location) {
    TreeMap<String, byte[]> classes = new TreeMap<>();
    try {
      if (Files.isDirectory(location)) {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(location)) {
          files = walk.filter(p -> p.toString().endsWith(".class")).toList();
        }
        for (Path file : files) {
          classes.put(location.relativize(file).toString().replace('\\', '/'), Files.readAllBytes(file));
        }
      } else {
        try (JarFile jar = new JarFile(location.toFile())) {
          for (var entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
            try (InputStream in = jar.getInputStream(entry)) {
              classes.put(entry.getName(), in.readAllBytes());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the classes at " + location, e);
    }
    return classes;
  }
}
