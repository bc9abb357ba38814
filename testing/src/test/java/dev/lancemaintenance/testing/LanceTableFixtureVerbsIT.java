package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The verbs that leave their own kind of file, one small table each. */
class LanceTableFixtureVerbsIT {
  @TempDir Path dir;

  @Test
  void namesManifestsByVersionWhenV1NamesAreAsked() {
    LanceTableFixture table =
        LanceTableFixture.create(dir.resolve("v1"), FixtureOptions.defaults().withV1ManifestNames());
    table.append(10);
    table.append(10);

    assertThat(table.listFiles()).contains("_versions/1.manifest", "_versions/2.manifest");
  }

  @Test
  void writesBinDeletionFileWhenMoreThan5000RowsOfAFragmentGo() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("bin"));
    long v1 = table.append(6000);
    table.deleteWhere("id < " + (LanceTableFixture.firstId(v1) + 5500));

    assertThat(table.listFiles()).anyMatch(f -> f.matches("_deletions/0-1-\\d+\\.bin"));
    assertThat(table.countRows()).isEqualTo(500);
  }

  @Test
  void buildsVectorIndexAndCompactsSmallFragments() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("vec"));
    for (int i = 0; i < 4; i++) {
      table.append(30);
    }
    long indexed = table.createVectorIndex(FixtureRows.VEC);
    long compacted = table.compact();

    assertThat(indexed).isEqualTo(5);
    assertThat(compacted).isGreaterThan(indexed);
    assertThat(table.countRows()).isEqualTo(120);
    assertThat(table.listFiles()).anyMatch(f -> f.matches("_indices/[0-9a-f-]{36}/index\\.idx"));
  }

  @Test
  void clonesShallowlyStartingAtTheSourceVersion() {
    LanceTableFixture source = LanceTableFixture.create(dir.resolve("src"));
    source.append(10);
    long v2 = source.append(10);
    source.append(10);

    LanceTableFixture clone = source.shallowClone(dir.resolve("clone"), v2);
    long cloneAppend = clone.append(5);

    assertThat(clone.versions()).containsExactly(v2, v2 + 1);
    assertThat(cloneAppend).isEqualTo(v2 + 1);
    assertThat(clone.countRows()).isEqualTo(25);
    assertThat(clone.listFiles()).anyMatch(f -> f.matches("data/.+\\.lance")).noneMatch(f -> f.startsWith("tree/"));
  }

  @Test
  void branchesOffABranchIntoItsOwnTreeDirectory() {
    LanceTableFixture main = LanceTableFixture.create(dir.resolve("bb"));
    long v1 = main.append(10);
    LanceTableFixture b1 = main.createBranch("b1", v1);
    long b1v2 = b1.append(10);
    LanceTableFixture b2 = b1.createBranch("b2", b1v2);
    b2.append(10);
    b2.tag("on-b2", b1v2 + 1);

    assertThat(b2.countRows()).isEqualTo(30);
    assertThat(main.countRows()).isEqualTo(10);
    assertThat(main.listFiles())
        .anyMatch(f -> f.startsWith("tree/b2/_versions/"))
        .contains("_refs/branches/b1.json", "_refs/branches/b2.json", "_refs/tags/on-b2.json");
  }
}
