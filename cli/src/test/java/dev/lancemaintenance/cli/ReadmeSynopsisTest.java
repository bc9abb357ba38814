package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** The README's command-line synopsis is the one generated from the option catalogue (issue 13). */
class ReadmeSynopsisTest {
  @Test
  void theReadmeShowsTheCleanupSynopsisAsTheCliPrintsIt() throws IOException {
    String readme = Files.readString(readme());

    assertThat(readme).contains("bin/lance-maintenance " + CleanupCommand.USAGE);
  }

  @Test
  void theReadmeShowsTheDescribeSynopsisAsTheCliPrintsIt() throws IOException {
    assertThat(Files.readString(readme())).contains("bin/lance-maintenance " + DescribeCommand.USAGE);
  }

  @Test
  void theSynopsisNamesEveryCatalogueOption() {
    for (CleanupOption option : CleanupOption.values()) {
      assertThat(CleanupCommand.USAGE).contains("[--" + option.cliName());
    }
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
