package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expire} from the shell, then {@code cleanup} with the same policy: the versions go with
 * the first, their files with the second; a mistake is a usage error with nothing deleted. (That
 * the two leave the SDK's files: {@code ExpireVersionsIT} in module {@code testing}.)
 */
class ExpireCommandIT {
  @TempDir Path dir;

  @Test
  void expireThenCleanupFromTheShell() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    long latest = table.append(10);
    String uri = table.uri();
    long expiring = table.versions().size() - 1;
    List<String> before = FileTimes.listFiles(table.root());

    CliRun misspelt = CliRun.of("expire", uri, "--older-than", "0s", "--retain-lst", "1");
    CliRun cleanupOption = CliRun.of("expire", uri, "--older-than", "0s", "--delete-unverified");
    List<String> afterMistakes = FileTimes.listFiles(table.root());
    CliRun dry = CliRun.of("expire", uri, "--older-than", "0s", "--retain-last", "1", "--dry-run");
    CliRun expired = CliRun.of("expire", uri, "--older-than", "0s", "--retain-last", "1", "--json");
    List<String> afterExpire = FileTimes.listFiles(table.root());
    CliRun swept = CliRun.of("cleanup", uri, "--older-than", "0s", "--retain-last", "1");

    assertThat(misspelt.exitCode()).as(misspelt.toString()).isEqualTo(2);
    assertThat(misspelt.err()).contains("retain-lst");
    assertThat(cleanupOption.exitCode()).as(cleanupOption.toString()).isEqualTo(2);
    assertThat(afterMistakes).as("files after the mistakes").isEqualTo(before);
    assertThat(dry.exitCode()).as(dry.toString()).isZero();
    assertThat(dry.out()).contains("Dry run of expire of").contains("_versions/");
    assertThat(expired.exitCode()).as(expired.toString()).isZero();
    assertThat(expired.json().get("old_versions").asLong()).isEqualTo(expiring);
    assertThat(expired.json().get("manifest_files_removed").asLong()).isEqualTo(expiring);
    assertThat(table.versions()).containsExactly(latest);
    assertThat(afterExpire).as("expire deletes manifests only").hasSize(before.size() - (int) expiring);
    assertThat(swept.exitCode()).as(swept.toString()).isZero();
    assertThat(FileTimes.listFiles(table.root())).as("the sweep removed the expired versions' transaction files")
        .hasSizeLessThan(afterExpire.size());
  }
}
