package dev.lancemaintenance.tags;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.lance.Ref;

/**
 * Our tag commands against the official SDK (7.0.0): what we write, the SDK reads as its own tag
 * (same version, branch and manifest size as a tag the SDK writes on that version), checks out, and
 * can move and delete; what the SDK writes, we move and delete. Refusals write nothing.
 */
class TableTagsIT {
  @TempDir static Path templateDir;
  private static LanceTableFixture template;

  @TempDir Path dir;
  private LanceTableFixture table;
  private TableStorage storage;
  private TableTags tags;

  @BeforeAll
  static void writeTemplate() {
    template = LanceTableFixture.create(templateDir.resolve("t"));
    template.append(10);
    template.append(10);
    template.append(10);
    template.createBranch("b1", 2).append(5);
  }

  private void open() {
    TableTwins.copy(template.root(), dir.resolve("t"));
    table = LanceTableFixture.open(dir.resolve("t"));
    storage = HadoopTableStorage.factory(StorageConf.defaults()).open(TableLocation.of(table.uri()));
    tags = TableTags.of(storage, Clock.systemUTC());
  }

  @AfterEach
  void close() {
    if (storage != null) {
      storage.close();
    }
  }

  @Test
  void aTagWeCreateIsTheSdksTagOnThatVersion() {
    open();
    table.tag("sdk", 2);

    Tag ours = tags.create("ours", 2, Optional.empty());

    org.lance.Tag sdkView = table.sdkTags().get("ours");
    org.lance.Tag sdkOwn = table.sdkTags().get("sdk");
    assertThat(sdkView.getVersion()).as("version the SDK reads").isEqualTo(2);
    assertThat(sdkView.getBranch()).as("branch the SDK reads").isEqualTo(sdkOwn.getBranch());
    assertThat((long) sdkView.getManifestSize()).as("manifest size").isEqualTo(sdkOwn.getManifestSize()).isEqualTo(ours.manifestSize());
    assertThat(sdkView.getCreatedAt()).as("createdAt").isPresent();
    assertThat(ReadBack.read(table.root(), Ref.ofTag("ours"))).as("the tag checked out")
        .isEqualTo(ReadBack.read(table.root(), Ref.ofMain(2)));
  }

  @Test
  void aTagOnABranchVersionReadsAsTheSdksBranchTag() {
    open();
    long branchVersion = table.branch("b1").latestVersion();
    table.tag("sdk", 1);

    tags.create("on-b1", branchVersion, Optional.of("b1"));

    org.lance.Tag sdkView = table.sdkTags().get("on-b1");
    assertThat(sdkView.getBranch()).as("branch").contains("b1");
    assertThat(sdkView.getVersion()).as("version").isEqualTo(branchVersion);
    assertThat(ReadBack.read(table.root(), Ref.ofTag("on-b1"))).as("the tag checked out")
        .isEqualTo(ReadBack.read(table.root(), Ref.ofBranch("b1", branchVersion)));
  }

  @Test
  void movingAnSdkTagKeepsWhenItWasCreated() {
    open();
    table.tag("release", 1);
    org.lance.Tag before = table.sdkTags().get("release");

    tags.move("release", 3, Optional.empty());

    org.lance.Tag after = table.sdkTags().get("release");
    assertThat(after.getVersion()).as("version").isEqualTo(3);
    assertThat(after.getCreatedAt()).as("createdAt").isEqualTo(before.getCreatedAt());
    assertThat(ReadBack.read(table.root(), Ref.ofTag("release"))).isEqualTo(ReadBack.read(table.root(), Ref.ofMain(3)));
  }

  @Test
  void deletingAnSdkTagLeavesTheOthers() {
    open();
    table.tag("a", 1);
    table.tag("b", 2);

    tags.delete("a");

    assertThat(table.sdkTags()).as("SDK's tags").containsOnlyKeys("b");
    assertThat(tags.list()).extracting(Tag::name).containsExactly("b");
  }

  @Test
  void refusalsNameTheTagAndWriteNothing() {
    open();
    table.tag("taken", 1);
    List<String> before = table.listFiles();

    assertThatThrownBy(() -> tags.create("taken", 2, Optional.empty()))
        .isInstanceOf(TagException.class).hasMessageContaining("'taken'").hasMessageContaining("exists already (at v1)")
        .hasMessageContaining(table.root().toString());
    assertThatThrownBy(() -> tags.create("new", 99, Optional.empty()))
        .isInstanceOf(TagException.class).hasMessageContaining("version 99 does not exist on main");
    assertThatThrownBy(() -> tags.create("new", 1, Optional.of("nope")))
        .isInstanceOf(TagException.class).hasMessageContaining("version 1 does not exist on branch nope");
    assertThatThrownBy(() -> tags.move("missing", 1, Optional.empty()))
        .isInstanceOf(TagException.class).hasMessageContaining("'missing'").hasMessageContaining("does not exist; tags: [taken]");
    assertThatThrownBy(() -> tags.delete("missing"))
        .isInstanceOf(TagException.class).hasMessageContaining("does not exist");

    assertThat(table.listFiles()).as("files after the refusals").isEqualTo(before);
    assertThat(table.sdkTags().get("taken").getVersion()).as("the taken tag").isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "a b", "a/b", "../x", ".hidden", "end.", "a..b", "x.lock", "a:b", "a~1", "a^b", "a*b", "a?b", "a[b", "Ünïcode"})
  void aNameOutsideTheCommonSetIsRefused(String name) {
    open();

    assertThatThrownBy(() -> tags.create(name, 1, Optional.empty()))
        .isInstanceOf(TagException.class).hasMessageContaining("is not a valid tag name");
    assertThat(Files.exists(dir.resolve("t/_refs/tags"))).as("tags directory").isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {"v1", "release-2026.12", "nightly_3", "A.b-C_9"})
  void aNameWeAcceptTheSdkAcceptsAndReads(String name) {
    open();

    tags.create(name, 1, Optional.empty());

    assertThat(table.sdkTags()).as("SDK's tags").containsOnlyKeys(name);
    assertThat(ReadBack.read(table.root(), Ref.ofTag(name))).isEqualTo(ReadBack.read(table.root(), Ref.ofMain(1)));
  }
}
