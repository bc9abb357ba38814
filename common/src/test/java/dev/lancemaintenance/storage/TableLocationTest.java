package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * "Is this base path this table?" (issue 12, items 1 and 8): every spelling of the table's own
 * directory is the table; a spelling that cannot be resolved with certainty counts as the table
 * (keeping a file too many is safe, one too few breaks a branch); a spelling of another directory
 * is not.
 */
class TableLocationTest {
  @TempDir Path dir;

  private Path table() throws IOException {
    return Files.createDirectories(dir.resolve("db").resolve("branch.lance")).toRealPath();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "./db/branch.lance", "db/branch.lance", "./db/branch.lance/", "../db/branch.lance", "../../x/../db/branch.lance",
      "branch.lance", "./branch.lance/"})
  void aRelativeBasePathWhoseTailIsTheTableIsTheTable(String basePath) throws IOException {
    assertThat(TableLocation.of(table().toString()).relativize(basePath)).contains("");
  }

  @Test
  void aRelativeBasePathIntoABranchOfTheTableIsThatBranch() throws IOException {
    TableLocation root = TableLocation.of(table().toString());

    assertThat(root.relativize("./db/branch.lance/tree/b1")).contains("tree/b1");
    assertThat(root.relativize("../db/branch.lance/tree/b1/")).contains("tree/b1");
  }

  @Test
  void aRelativeBasePathThatNamesNoPartOfTheTableCountsAsTheTable() throws IOException {
    // The writer's working directory is unknown, so this cannot be resolved with certainty: keep.
    assertThat(TableLocation.of(table().toString()).relativize("./renamed/elsewhere.lance")).contains("");
  }

  @Test
  void onlyAMatchedBasePathIsCertainlyTheTable() throws IOException {
    TableLocation root = TableLocation.of(table().toString());

    assertThat(root.locate("./db/branch.lance/tree/b1")).contains(new TableLocation.PathInTable("tree/b1", true));
    assertThat(root.locate(table().toString())).contains(new TableLocation.PathInTable("", true));
    assertThat(root.locate("./renamed/elsewhere.lance")).contains(new TableLocation.PathInTable("", false));
    assertThat(root.locate("file:///%zz/not a uri")).contains(new TableLocation.PathInTable("", false));
    assertThat(root.locate(dir.resolve("other.lance").toString())).isEmpty();
  }

  @Test
  void anUnmatchedRelativeBasePathIntoABranchStaysThatBranch() throws IOException {
    // Still uncertain, so still this table, but a branch's own directory must not become the root.
    assertThat(TableLocation.of(table().toString()).relativize("./moved/old.lance/tree/b1")).contains("tree/b1");
  }

  @Test
  void aPercentEncodedRelativeBasePathIsMatchedDecoded() throws IOException {
    Path table = Files.createDirectories(dir.resolve("my db").resolve("t.lance")).toRealPath();

    assertThat(TableLocation.of(table.toString()).relativize("./my%20db/t.lance/tree/b1")).contains("tree/b1");
  }

  @Test
  void everyAbsoluteSpellingOfTheTableIsTheTable() throws IOException {
    Path table = table();
    TableLocation root = TableLocation.of(table.toString());

    assertThat(root.relativize(table + "/")).contains("");
    assertThat(root.relativize(table.toUri().toString())).contains("");
    assertThat(root.relativize("file:" + table)).contains("");
    assertThat(root.relativize(table.getParent() + "/./" + table.getFileName())).contains("");
    assertThat(root.relativize(table.getParent() + "/../db/" + table.getFileName())).contains("");
    assertThat(root.relativize(table + "/tree/b1")).contains("tree/b1");
  }

  @Test
  void aPercentEncodedSpellingOfTheTableIsTheTable() throws IOException {
    Path table = Files.createDirectories(dir.resolve("my table.lance")).toRealPath();
    TableLocation root = TableLocation.of(table.toString());
    String encoded = table.toString().replace(" ", "%20");

    assertThat(root.relativize(encoded)).contains("");
    assertThat(root.relativize("file://" + encoded)).contains("");
    assertThat(root.relativize("file://" + table)).as("a raw space in a file: URI").contains("");
  }

  @Test
  void aBasePathThatCannotBeParsedCountsAsTheTable() throws IOException {
    assertThat(TableLocation.of(table().toString()).relativize("file:///%zz/not a uri")).contains("");
  }

  @Test
  void aSymlinkToTheTableAndTheTableAreOneTable() throws IOException {
    Path table = table();
    Path link = Files.createSymbolicLink(dir.resolve("link.lance"), table);
    Path linkedParent = Files.createSymbolicLink(dir.resolve("linked-db"), table.getParent());

    assertThat(TableLocation.of(link.toString()).relativize(table.toString())).contains("");
    assertThat(TableLocation.of(table.toString()).relativize(link.toString())).contains("");
    assertThat(TableLocation.of(table.toString()).relativize(linkedParent.resolve("branch.lance/tree/b2").toString()))
        .contains("tree/b2");
    assertThat(TableLocation.of(link.toString())).isEqualTo(TableLocation.of(table.toString()));
  }

  @Test
  void anotherDirectoryIsNotTheTable() throws IOException {
    Path table = table();
    Path other = Files.createDirectories(dir.resolve("db").resolve("other.lance"));
    TableLocation root = TableLocation.of(table.toString());

    assertThat(root.relativize(other.toString())).isEqualTo(Optional.empty());
    assertThat(root.relativize(table + "-copy")).isEqualTo(Optional.empty());
    assertThat(root.relativize("s3://bucket" + table)).isEqualTo(Optional.empty());
  }

  @Test
  void theUriKeepsTheSpellingTheUserGave() throws IOException {
    Path link = Files.createSymbolicLink(dir.resolve("link.lance"), table());

    assertThat(TableLocation.of(link.toString()).uri()).isEqualTo("file:" + link);
  }
}
