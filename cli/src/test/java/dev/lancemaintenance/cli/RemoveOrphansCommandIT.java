package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OrphanedTable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remove-orphans} from the command line, on the {@link OrphanedTable}. The refused command lines and the dry run share
 * the table; the run that deletes gets a copy.
 */
class RemoveOrphansCommandIT {
  @TempDir static Path workDir;

  private static PristineTable pristine;
  private static String orphan;

  @BeforeAll
  static void writeTable() {
    OrphanedTable orphaned = OrphanedTable.write(workDir.resolve("pristine"));
    LanceTableFixture table = orphaned.table();
    orphan = orphaned.oldOrphan();
    pristine = new PristineTable(table);
  }

  @Test
  void removesTheOrphanAndNothingAVersionReferences() {
    Path table = pristine.copy();
    TreeSet<String> before = filesOf(table);

    CliRun run = CliRun.of("remove-orphans", table.toString(), "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    assertThat(run.json().get("data_files_removed").asLong()).as("data_files_removed").isEqualTo(1);
    assertThat(run.json().get("old_versions").asLong()).as("old_versions").isZero();
    before.remove(orphan);
    assertThat(filesOf(table)).as("files after the run").isEqualTo(before);
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @Test
  void aDryRunListsTheOrphan() {
    TreeSet<String> before = filesOf(pristine.root());

    CliRun run = CliRun.of("remove-orphans", pristine.root().toString(), "--dry-run", "--json");

    assertThat(run.exitCode()).as("%s", run).isZero();
    List<String> listed = new ArrayList<>();
    for (JsonNode file : run.json().get("files")) {
      listed.add(file.get("path").asText());
    }
    assertThat(listed).containsExactly(orphan);
    assertThat(filesOf(pristine.root())).as("files after the dry run").isEqualTo(before);
  }

  @Test
  void optionsThatChooseVersionsAndShortWindowsAreRefused() {
    TreeSet<String> before = filesOf(pristine.root());

    CliRun versions = CliRun.of("remove-orphans", pristine.root().toString(), "--before-version", "2");
    CliRun shortWindow = CliRun.of("remove-orphans", pristine.root().toString(), "--older-than", "12h");

    assertThat(versions.exitCode()).as("%s", versions).isEqualTo(2);
    assertThat(versions.err()).contains("before-version");
    assertThat(shortWindow.exitCode()).as("%s", shortWindow).isEqualTo(1);
    assertThat(shortWindow.err()).contains("retention guard").contains(pristine.root().toString());
    assertThat(filesOf(pristine.root())).as("files after the refused runs").isEqualTo(before);
  }

  /** The table's files, table-relative, without the released lease. */
  private static TreeSet<String> filesOf(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }
}
