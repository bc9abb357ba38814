package dev.lancemaintenance.distribution;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.examples.DemoTable;
import dev.lancemaintenance.testing.CapturedRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code demo <path>} never deletes what it did not create (issue 12, item 2): it used to delete
 * whatever was at the path, recursively, and {@code demo --help} made a table named {@code --help}.
 * These refusals happen before any table is written or any Spark session starts.
 */
class DemoTest {
  @TempDir Path dir;

  private static CapturedRun demo(String... args) {
    return CapturedRun.of((out, err) -> Demo.run(List.of(args), out, err));
  }

  @Test
  void helpShowsTheUsageAndWritesNothing() {
    CapturedRun help = demo("--help");

    assertThat(help.exit()).isZero();
    assertThat(help.out()).contains("usage: lance-maintenance demo");
    assertThat(Paths.get("--help")).doesNotExist();
    assertThat(demo("--force").exit()).as("any other option is a usage error").isEqualTo(2);
  }

  @Test
  void aDirectoryOfUserFilesIsRefusedAndKept() throws IOException {
    Path photos = Files.createDirectories(dir.resolve("photos"));
    Files.writeString(photos.resolve("holiday.jpg"), "precious");
    TreeSet<String> before = tree(dir);

    CapturedRun run = demo(photos.toString());

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).contains("refusing").contains(photos.toString()).contains("never deletes");
    assertThat(tree(dir)).isEqualTo(before);
  }

  @Test
  void theParentDirectoryIsRefused() throws IOException {
    Path work = Files.createDirectories(dir.resolve("work"));
    Files.writeString(dir.resolve("notes.txt"), "mine");
    TreeSet<String> before = tree(dir);

    CapturedRun run = demo(work.resolve("..").toString());

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(tree(dir)).isEqualTo(before);
  }

  @Test
  void aRealLanceTableIsRefusedAndKept() {
    Path table = dir.resolve("prod.lance");
    DemoTable.write(table, 2, 10);
    TreeSet<String> before = tree(table);

    CapturedRun run = demo(table.toString());

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(tree(table)).isEqualTo(before);
  }

  @Test
  void aPlainFileIsRefusedAndKept() throws IOException {
    Path file = Files.writeString(dir.resolve("file.lance"), "not a directory");

    assertThat(demo(file.toString()).exit()).isEqualTo(1);
    assertThat(Files.readString(file)).isEqualTo("not a directory");
  }

  @Test
  void anEarlierDemoHoldingForeignFilesIsRefused() throws IOException {
    Path root = dir.resolve("demo.lance");
    DemoTable.prepare(root);
    Files.writeString(root.resolve("my-notes.txt"), "added by the user");

    assertThat(demo(root.toString()).exit()).isEqualTo(1);
    assertThat(root.resolve("my-notes.txt")).exists();
  }

  @Test
  void anEarlierDemosTableIsReplacedAndAnEmptyDirectoryUsed() throws IOException {
    Path root = dir.resolve("demo.lance");
    DemoTable.prepare(root);
    DemoTable.write(root, 2, 10);

    DemoTable.prepare(root);

    assertThat(tree(root)).containsExactly(DemoTable.MARKER);
    Path empty = Files.createDirectories(dir.resolve("empty"));
    DemoTable.prepare(empty);
    assertThat(tree(empty)).containsExactly(DemoTable.MARKER);
  }

  private static TreeSet<String> tree(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      return paths.filter(path -> !path.equals(root)).map(path -> root.relativize(path).toString())
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
