package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tag} from the shell, checked with the SDK: the way out that a cleanup refusing over a
 * tagged old version names, used end to end.
 */
class TagCommandIT {
  @TempDir Path dir;

  @Test
  void aRefusedCleanupGoesThroughAfterTheTagIsMoved() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    long latest = table.append(10);
    String uri = table.uri();

    CliRun created = CliRun.of("tag", "create", uri, "release", "1");
    CliRun refused = CliRun.of("cleanup", uri, "--older-than", "0s");
    CliRun moved = CliRun.of("tag", "move", uri, "release", Long.toString(latest));
    CliRun listed = CliRun.of("tag", "list", uri);
    CliRun cleaned = CliRun.of("cleanup", uri, "--older-than", "0s");

    assertThat(created.exitCode()).as(created.toString()).isZero();
    assertThat(created.out()).isEqualTo("created tag release -> v1\n");
    assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(1);
    assertThat(refused.err()).contains("release -> v1").contains("tag move");
    assertThat(moved.out()).isEqualTo("moved tag release -> v" + latest + "\n");
    assertThat(listed.out()).isEqualTo("release\tv" + latest + "\n");
    assertThat(cleaned.exitCode()).as(cleaned.toString()).isZero();
    assertThat(table.versions()).containsExactly(latest);
    assertThat(table.sdkTags().get("release").getVersion()).isEqualTo(latest);
  }

  @Test
  void deleteAndTheMistakesAUserMakes() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.tag("old", 1);
    String uri = table.uri();

    CliRun missingVersion = CliRun.of("tag", "create", uri, "x", "9");
    CliRun badVersion = CliRun.of("tag", "create", uri, "x", "latest");
    CliRun badName = CliRun.of("tag", "create", uri, "a b", "1");
    CliRun unknown = CliRun.of("tag", "rename", uri, "old", "new");
    CliRun branchOnDelete = CliRun.of("tag", "delete", uri, "old", "--branch", "b");
    CliRun deleted = CliRun.of("tag", "delete", uri, "old");

    assertThat(missingVersion.exitCode()).isEqualTo(1);
    assertThat(missingVersion.err()).contains("version 9 does not exist on main");
    assertThat(badVersion.exitCode()).isEqualTo(2);
    assertThat(badVersion.err()).contains("a version is a number, not 'latest'");
    assertThat(badName.exitCode()).isEqualTo(1);
    assertThat(badName.err()).contains("is not a valid tag name");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unknown tag subcommand 'rename'");
    assertThat(branchOnDelete.exitCode()).isEqualTo(2);
    assertThat(deleted.out()).isEqualTo("deleted tag old\n");
    assertThat(table.sdkTags()).isEmpty();
  }
}
