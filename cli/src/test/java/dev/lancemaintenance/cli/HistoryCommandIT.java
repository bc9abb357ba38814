package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code history} from the shell: the runs a cleanup recorded, as text and JSON, and no credential in them. */
class HistoryCommandIT {
  private static final String SECRET = "history-test-secret-4711";

  @TempDir Path dir;

  @Test
  void historyShowsTheCleanupsRunsAndNoCredentialGivenThroughConfIsRecorded() throws Exception {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);
    table.append(5);
    table.overwrite(5);
    String uri = table.uri();
    CliRun before = CliRun.of("history", uri);

    CliRun cleaned = CliRun.of("cleanup", uri, "--older-than", "0s", "--json",
        "--conf", "fs.s3a.secret.key=" + SECRET, "--conf", "fs.s3a.access.key=" + SECRET);
    CliRun text = CliRun.of("history", uri);
    CliRun json = CliRun.of("history", uri, "--json", "--limit", "1");

    assertThat(before.out()).isEqualTo("no recorded runs\n");
    assertThat(cleaned.exitCode()).as(cleaned.toString()).isZero();
    assertThat(text.exitCode()).as(text.toString()).isZero();
    assertThat(text.out().lines().toList()).singleElement().asString()
        .contains("  finished  cleanup main on local  run-").contains("  old_versions=2");
    JsonNode runs = json.json().get("runs");
    assertThat(runs).hasSize(1);
    JsonNode run = runs.get(0);
    assertThat(run.get("state").asText()).isEqualTo("finished");
    assertThat(run.get("mark_mode").asText()).isEqualTo("full");
    for (String counter : CleanupResult.counterNames()) {
      assertThat(run.get(counter).asLong()).as(counter).isEqualTo(cleaned.json().get(counter).asLong());
    }
    assertThat(run.has("error")).as("no error column for a finished run").isFalse();
    try (Stream<Path> files = Files.walk(table.root().resolve(TableLease.DIR))) {
      List<Path> recorded = files.filter(Files::isRegularFile).toList();
      assertThat(recorded).as("the run records").anyMatch(file -> file.toString().endsWith(".start"));
      for (Path file : recorded) {
        assertThat(Files.readString(file, StandardCharsets.ISO_8859_1)).as(file.toString()).doesNotContain(SECRET);
      }
    }
    assertThat(text.out() + json.out()).doesNotContain(SECRET);
  }

  @Test
  void aLimitBelowOneIsAUsageError() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(5);

    CliRun run = CliRun.of("history", table.uri(), "--limit", "0");

    assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
    assertThat(run.err()).contains("--limit must be at least 1");
  }
}
