package dev.lancemaintenance.spark.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.cli.MaintenanceCli;
import dev.lancemaintenance.testing.CapturedRun;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ManifestEdits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup --engine spark} through the command line: a corrupt manifest in Spark's
 * distributed path is one line naming the file (and a JSON {@code error} under {@code --json}), not
 * an uncaught job failure; a URI with credentials is refused before a session starts (issue 12).
 */
class SparkEngineCliIT {
  @TempDir Path dir;

  private static CapturedRun cli(String... args) {
    return CapturedRun.of((out, err) -> MaintenanceCli.execute(List.of(args), out, err));
  }

  @Test
  void aCorruptManifestInTheDistributedPathIsOneLineAndAJsonError() throws IOException {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    for (int i = 0; i < 4; i++) {
      table.append(10);
    }
    Path manifest;
    try (Stream<Path> manifests = Files.list(table.root().resolve("_versions"))) {
      manifest = manifests.sorted().findFirst().orElseThrow();
    }
    ManifestEdits.truncateToHalf(manifest);
    TreeSet<String> before = new TreeSet<>(table.listFiles());

    CapturedRun run = cli("cleanup", table.root().toString(), "--older-than", "0s", "--engine", "spark",
        "--master", "local[2]", "--engine-option", "distribute_above=0", "--json");

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(run.err().lines()).as("one line: %s", run).hasSize(1);
    assertThat(run.err()).contains(manifest.getFileName().toString());
    JsonNode json = new ObjectMapper().readTree(run.out());
    assertThat(json.get("error").asText()).contains(manifest.getFileName().toString());
    assertThat(new TreeSet<>(table.listFiles())).as("nothing deleted").isEqualTo(before);
  }

  @Test
  void credentialsInTheUriAreRefusedBeforeSparkSeesThem() {
    for (String dryRun : List.of("--dry-run", "--json")) {
      CapturedRun run = cli("cleanup", "s3a://AKIAEXAMPLE:SECRETVALUE@bucket/t.lance", "--engine", "spark", dryRun);

      assertThat(run.exit()).as("%s", run).isEqualTo(2);
      assertThat(run.out() + run.err()).contains("credentials").doesNotContain("SECRETVALUE").doesNotContain("AKIAEXAMPLE");
    }
  }
}
