package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.CompactionOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The README's command-line synopses are the ones generated from the option catalogues (issue 13). */
class ReadmeSynopsisTest {
  @Test
  void theReadmeShowsTheCleanupSynopsisAsTheCliPrintsIt() throws IOException {
    String readme = Files.readString(readme());

    assertThat(readme).contains("bin/lance-maintenance " + CleanupCommand.USAGE);
    assertThat(readme).contains("bin/lance-maintenance " + CleanupAllCommand.USAGE);
  }

  @Test
  void theReadmeShowsTheDescribeSynopsisAsTheCliPrintsIt() throws IOException {
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + DescribeCommand.USAGE);
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + DescribeAllCommand.USAGE);
  }

  @Test
  void theReadmeShowsTheHistorySynopsisAsTheCliPrintsIt() throws IOException {
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + HistoryCommand.USAGE);
  }

  @Test
  void theReadmeShowsTheCompactAndOptimizeSynopsesAsTheCliPrintsThem() throws IOException {
    String readme = Files.readString(readme());

    assertThat(readme).contains("bin/lance-maintenance " + CompactCommand.USAGE);
    assertThat(readme).contains("bin/lance-maintenance " + OptimizeCommand.USAGE);
    assertThat(readme).contains("bin/lance-maintenance " + OptimizeAllCommand.USAGE);
  }

  @Test
  void theReadmeShowsTheExpireSynopsisAsTheCliPrintsIt() throws IOException {
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + ExpireCommand.USAGE);
    for (CleanupOption option : dev.lancemaintenance.expire.ExpireVersionsAction.OPTIONS) {
      assertThat(ExpireCommand.USAGE).as("expire").contains("[--" + option.cliName());
    }
  }

  @Test
  void theSynopsisNamesEveryCatalogueOption() {
    for (CleanupOption option : CleanupOption.values()) {
      assertThat(CleanupCommand.USAGE).contains("[--" + option.cliName());
    }
    for (CompactionOption option : CompactionOption.values()) {
      assertThat(CompactCommand.USAGE).as("compact").contains("[--" + option.cliName());
    }
    for (MaintenanceOption option : OptimizeAction.OPTIONS.options()) {
      assertThat(OptimizeCommand.USAGE).as("optimize").contains("[--" + option.cliName());
    }
    assertThat(OptimizeCommand.USAGE).as("optimize compacts the main line").doesNotContain("--branch");
    for (MaintenanceOption option : CleanupOption.ORPHAN_FILES_CATALOGUE.options()) {
      assertThat(CleanupCommand.ORPHANS_USAGE).as("remove-orphans").contains("[--" + option.cliName());
    }
    assertThat(CleanupCommand.ORPHANS_USAGE).as("remove-orphans expires no version").doesNotContain("--before-version");
  }

  @Test
  void theReadmeShowsTheRemoveOrphansSynopsisAsTheCliPrintsIt() throws IOException {
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + CleanupCommand.ORPHANS_USAGE);
  }

  private static Path readme() {
    for (Path dir = Paths.get("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      if (Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("common"))) {
        return dir.resolve("README.md");
      }
    }
    throw new IllegalStateException("README.md not found above " + Paths.get("").toAbsolutePath());
  }
}
