package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.StorageReportTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code describe} from the shell: the report as text, JSON and an HTML page, and the mistakes a user makes. */
class DescribeCommandIT {
  @TempDir static Path dir;
  private static LanceTableFixture table;

  @BeforeAll
  static void writeTable() {
    table = StorageReportTable.write(dir.resolve("t"));
  }

  @Test
  void theJsonHasAWhatIfRowPerWindowGiven() throws Exception {
    CliRun run = CliRun.of("describe", table.uri(), "--json", "--windows", "0s,30d", "--no-error-if-tagged-old-versions");

    assertThat(run.exitCode()).as(run.toString()).isZero();
    JsonNode json = new ObjectMapper().readTree(run.out());
    List<String> windows = new ArrayList<>();
    json.get("what_if").forEach(window -> windows.add(window.get("window").asText()));
    assertThat(windows).containsExactly("0s", "30d");
    assertThat(json.at("/what_if/0/bytes").asLong()).as("0s frees more than 30d")
        .isGreaterThan(json.at("/what_if/1/bytes").asLong());
    assertThat(json.at("/what_if/1/bytes").asLong()).as("30d frees the file planted 40 days ago")
        .isEqualTo(StorageReportTable.PLANTED_BYTES);
  }

  @Test
  void theTextNamesEverySectionAndHtmlGoesToTheFileGiven() throws Exception {
    Path page = dir.resolve("report.html");
    CliRun run = CliRun.of("describe", table.uri(), "--html", page.toString());

    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.out()).contains("Versions", "Files by kind/category", "Reclaimable now", "What-if", "Tags", "Branches");
    assertThat(Files.readString(page)).as("the page").startsWith("<!DOCTYPE html>").contains("\"what_if\"")
        .doesNotContain("<script src").doesNotContain("<link");
  }

  @Test
  void aRunSettingABadWindowOrAPathThatIsNoTableIsAClearError() {
    CliRun dryRun = CliRun.of("describe", table.uri(), "--dry-run");
    CliRun badWindow = CliRun.of("describe", table.uri(), "--windows", "7 parsecs");
    CliRun noTable = CliRun.of("describe", dir.resolve("missing").toString());

    assertThat(dryRun.exitCode()).as(dryRun.toString()).isEqualTo(2);
    assertThat(dryRun.err()).contains("--dry-run");
    assertThat(badWindow.exitCode()).as(badWindow.toString()).isEqualTo(2);
    assertThat(badWindow.err()).contains("windows").contains("7 parsecs");
    assertThat(noTable.exitCode()).as(noTable.toString()).isEqualTo(1);
    assertThat(noTable.err()).contains("missing").contains("_versions");
  }
}
