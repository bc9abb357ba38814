package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup-all <root>}, {@code describe-all <root>} and {@code optimize-all <root>} from the shell: one line (or JSON
 * object) per table, a refused or failed table in its line while the others run, and the exit code
 * that tells a script. The semantics per table are the fleet contract's ({@code LocalFleetIT}).
 */
class CleanupAllCommandIT {
  @TempDir Path dir;

  private LanceTableFixture table(String name, boolean tagged) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve(name));
    table.append(10);
    table.append(10);
    if (tagged) {
      table.tag("release", 1);
    }
    return table;
  }

  @Test
  void eachTableHasItsLineAndARefusalFailsTheRunWithoutStoppingTheOthers() throws Exception {
    LanceTableFixture good = table("good.lance", false);
    LanceTableFixture tagged = table("tagged.lance", true);
    Files.createDirectories(dir.resolve("notes"));
    List<String> taggedBefore = tagged.listFiles();
    String root = dir.toUri().toString();

    CliRun dryRun = CliRun.of("cleanup-all", root, "--older-than", "0s", "--dry-run", "--json");
    CliRun run = CliRun.of("cleanup-all", root, "--older-than", "0s");

    JsonNode json = new ObjectMapper().readTree(dryRun.out());
    assertThat(json.get("pattern").asText()).isEqualTo("*.lance");
    assertThat(json.get("tables")).as(dryRun.toString()).hasSize(2);
    assertThat(json.get("tables").get(0).get("status").asText()).isEqualTo("ok");
    assertThat(json.get("tables").get(0).get("old_versions").asLong()).isEqualTo(1);
    assertThat(json.get("tables").get(1).get("status").asText()).isEqualTo("refused");
    assertThat(json.get("tables").get(1).get("error").asText()).contains("release -> v1");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(run.out()).contains("Cleaned up 2 tables under").contains("good.lance old_versions=1 ")
        .containsPattern("refused +\\S*tagged.lance: .*release -> v1");
    assertThat(run.err()).contains("1 of 2 tables failed or were refused");
    assertThat(good.versions()).as("versions of the table that was cleaned").containsExactly(good.latestVersion());
    assertThat(tagged.listFiles()).as("files of the refused table").isEqualTo(taggedBefore);
  }

  @Test
  void mistakesOnTheCommandLineDeleteNothing() {
    LanceTableFixture good = table("good.lance", false);
    List<String> before = good.listFiles();
    String root = dir.toUri().toString();

    CliRun misspelt = CliRun.of("cleanup-all", root, "--older-than", "0s", "--dryrun");
    CliRun noTables = CliRun.of("cleanup-all", root, "--older-than", "0s", "--concurrent-tables", "0");
    CliRun aTable = CliRun.of("cleanup-all", good.uri(), "--older-than", "0s");

    assertThat(misspelt.exitCode()).as(misspelt.toString()).isEqualTo(2);
    assertThat(noTables.exitCode()).as(noTables.toString()).isEqualTo(2);
    assertThat(noTables.err()).contains("--concurrent-tables");
    assertThat(aTable.exitCode()).as(aTable.toString()).isEqualTo(1);
    assertThat(aTable.err()).contains("is a Lance table, not a directory of tables");
    assertThat(good.listFiles()).as("files after the mistakes").isEqualTo(before);
  }

  @Test
  void describeAllReportsEachTableInItsLineAndDeletesNothing() throws Exception {
    LanceTableFixture good = table("good.lance", false);
    Files.createDirectories(dir.resolve("broken.lance/data"));
    Files.writeString(dir.resolve("broken.lance/data/left-behind.lance"), "not a table");
    List<String> before = good.listFiles();
    String root = dir.toUri().toString();

    CliRun json = CliRun.of("describe-all", root, "--older-than", "0s", "--json");
    CliRun text = CliRun.of("describe-all", root, "--older-than", "0s");
    CliRun runSetting = CliRun.of("describe-all", root, "--dry-run");

    JsonNode tables = new ObjectMapper().readTree(json.out()).get("tables");
    assertThat(tables).as(json.toString()).hasSize(2);
    assertThat(tables.get(0).get("status").asText()).isEqualTo("failed");
    assertThat(tables.get(0).get("error").asText()).contains("broken.lance").contains("not a Lance table");
    assertThat(tables.get(1).get("status").asText()).isEqualTo("ok");
    assertThat(tables.get(1).get("versions").asLong()).isEqualTo(good.versions().size());
    assertThat(tables.get(1).get("reclaimable_versions").asLong()).as("versions older than 0s").isEqualTo(good.versions().size() - 1);
    assertThat(json.exitCode()).as(json.toString()).isEqualTo(1);
    assertThat(text.out()).contains("Storage of 2 tables under").containsPattern("ok +\\S*good.lance versions=");
    assertThat(runSetting.exitCode()).as(runSetting.toString()).isEqualTo(2);
    assertThat(good.listFiles()).as("files after the reports").isEqualTo(before);
  }

  @Test
  void optimizeAllCompactsEachTableInItsLineAndAMisspeltOptionChangesNothing() throws Exception {
    LanceTableFixture good = table("good.lance", false);
    LanceTableFixture tagged = table("tagged.lance", true);
    List<String> taggedBefore = tagged.listFiles();
    List<String> goodBefore = good.listFiles();
    String root = dir.toUri().toString();

    CliRun misspelt = CliRun.of("optimize-all", root, "--older-than", "0s", "--target-rows-per-fragmnt", "40");
    List<String> afterMisspelt = good.listFiles();
    CliRun run = CliRun.of("optimize-all", root, "--older-than", "0s", "--json");

    assertThat(misspelt.exitCode()).as(misspelt.toString()).isEqualTo(2);
    assertThat(misspelt.err()).contains("target-rows-per-fragmnt");
    assertThat(afterMisspelt).as("files after the misspelt call").isEqualTo(goodBefore);
    JsonNode tables = new ObjectMapper().readTree(run.out()).get("tables");
    assertThat(tables).as(run.toString()).hasSize(2);
    assertThat(tables.get(0).get("status").asText()).isEqualTo("ok");
    assertThat(tables.get(0).get("fragments_removed").asLong()).as("fragments merged in good.lance").isEqualTo(2);
    assertThat(tables.get(1).get("status").asText()).isEqualTo("refused");
    assertThat(tables.get(1).get("error").asText()).contains("release -> v1");
    assertThat(run.exitCode()).as(run.toString()).isEqualTo(1);
    assertThat(good.versions()).as("versions of the optimized table").containsExactly(good.latestVersion());
    assertThat(tagged.listFiles()).as("files of the refused table").isEqualTo(taggedBefore);
  }
}
