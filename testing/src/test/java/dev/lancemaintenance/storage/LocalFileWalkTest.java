package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each walked file's path is {@code root.relativize(file)} however the root and the directory are
 * spelled: one cut of the entry's path string where the directory's string is the root's followed by
 * its relative path, the relative prefix and the name otherwise (LocalFileWalk.Level#relative).
 */
class LocalFileWalkTest {
  @TempDir Path dir;

  @Test
  void everyFileComesAsItsPathRelativeToTheRootWhateverTheSpelling() throws IOException {
    Path root = Files.createDirectories(dir.resolve("t.lance"));
    List<String> planted = List.of("data/a.lance", "data/sub/b.lance", "data/sub/x/c.lance", "top.txt");
    for (String path : planted) {
      Files.createDirectories(root.resolve(path).getParent());
      Files.writeString(root.resolve(path), path);
    }
    Path dotted = Path.of(root + "/.");
    List<Path[]> spellings = List.of(
        new Path[] {root, root},
        new Path[] {root, root.resolve("data")},
        new Path[] {root, root.resolve("data/sub")},
        new Path[] {dotted, dotted.resolve("data")},
        new Path[] {root, Path.of(root + "/./data")},
        new Path[] {dotted, root.resolve("data")},
        new Path[] {root, root.resolve("data/sub/..")});
    for (Path[] spelling : spellings) {
      Path walkedRoot = spelling[0];
      Path walked = spelling[1];
      for (boolean leaves : List.of(false, true)) {
        List<String> expected = new ArrayList<>();
        try (var files = Files.walk(walked)) {
          files.filter(Files::isRegularFile).forEach(file -> expected.add(walkedRoot.relativize(file).toString()));
        }
        List<String> listed = new ArrayList<>();
        try (LocalFileWalk walk = new LocalFileWalk(walkedRoot, walked, true, leaves ? new LeafDirectories() : null,
            UncheckedIOException::new)) {
          walk.forEachRemaining(entry -> listed.add(entry.path()));
        }
        assertThat(listed).as("root %s, dir %s, leaves %s", walkedRoot, walked, leaves)
            .isNotEmpty().containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }
}
