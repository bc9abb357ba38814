package dev.lancemaintenance.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every path that crosses a stage is checked once here, so later code may compare paths as strings:
 * a path that could name a file outside the table, or name one file two ways, never passes.
 */
class TablePathsTest {
  private static final String TABLE = "file:/warehouse/t.lance";

  @ParameterizedTest
  @ValueSource(strings = {"data/a.lance", "_versions/1.manifest", "a", "tree/b/_indices/u-1/index.idx", "..hidden/x", "a/.b"})
  void aPlainRelativePathPassesUnchanged(String path) {
    assertThat(TablePaths.checkRelative(TABLE, path)).isSameAs(path);
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "", "/data/a.lance", "data/", "/", "data//a.lance", "./data/a.lance", "data/./a.lance",
    "../t2.lance/data/a.lance", "data/../../etc/passwd", "data/..", "..", ".", "data\\a.lance"
  })
  void aPathThatEscapesOrHasTwoSpellingsIsRefusedNamingTableAndPath(String path) {
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, path))
        .isInstanceOf(PathEscapeException.class)
        .hasMessageContaining(TABLE)
        .hasMessageContaining("'" + path + "'");
  }

  @Test
  void theRefusalSaysWhichRuleThePathBroke() {
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, "data/../x")).hasMessageContaining("segment '..'");
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, "data//x")).hasMessageContaining("segment ''");
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, "/x")).hasMessageContaining("leading or trailing '/'");
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, "a\\..\\x")).hasMessageContaining("backslash");
    assertThatThrownBy(() -> TablePaths.checkRelative(TABLE, "")).hasMessageContaining("empty path");
  }

  @Test
  void joiningWithTheRootOrAnEmptyChildAddsNoSlash() {
    assertThat(TablePaths.join("", "_versions")).isEqualTo("_versions");
    assertThat(TablePaths.join("tree/b", "")).isEqualTo("tree/b");
    assertThat(TablePaths.join("tree/b", "_versions")).isEqualTo("tree/b/_versions");
    assertThat(TablePaths.join("", "")).isEmpty();
    assertThat(TablePaths.checkRelative(TABLE, TablePaths.join("tree/b", "data/a.lance"))).isEqualTo("tree/b/data/a.lance");
  }

  @Test
  void theFileNameIsTheLastSegment() {
    assertThat(TablePaths.fileName("data/a.lance")).isEqualTo("a.lance");
    assertThat(TablePaths.fileName("tree/b/_versions/3.manifest")).isEqualTo("3.manifest");
    assertThat(TablePaths.fileName("top.txt")).isEqualTo("top.txt");
  }
}
