package dev.lancemaintenance.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.HeadlessBrowser;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.StorageReportTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage report's HTML page in a real headless Chromium: after its scripts ran, the numbers
 * it shows are the report's, and it loads nothing from outside the file.
 */
class StorageReportPageIT {
  @TempDir static Path dir;
  private static StorageReport report;
  private static HeadlessBrowser.Shown shown;

  @BeforeAll
  static void renderThePage() throws Exception {
    LanceTableFixture table = StorageReportTable.write(dir.resolve("t"));
    TableLocation location = TableLocation.of(table.uri());
    var stores = HadoopTableStorage.factory(StorageConf.defaults());
    report = new LocalStorageReport(location, stores)
        .report(new LocalCleanupAction(location, stores, Clock.systemUTC()).errorIfTaggedOldVersions(true).request());
    Path page = dir.resolve("report.html");
    Files.writeString(page, StorageReportHtml.render(report));
    Path screenshot = Path.of("target", "storage-report-page.png").toAbsolutePath();
    Files.createDirectories(screenshot.getParent());
    shown = HeadlessBrowser.render(page, Optional.of(screenshot));
  }

  private static String shownNumber(long value) {
    return String.format(Locale.US, "%,d", value);
  }

  @Test
  void theWhatIfTableShowsEachWindowsPrediction() {
    List<List<String>> rows = shown.table("what-if");

    assertThat(rows).as("one row per window").hasSize(report.windows().size());
    for (int i = 0; i < rows.size(); i++) {
      StorageReport.WindowResult window = report.windows().get(i);
      assertThat(rows.get(i).subList(0, 4)).as("window %s", window.label()).containsExactly(window.label(),
          shownNumber(window.versionsRemoved()), shownNumber(window.freed().files()), shownNumber(window.freed().bytes()));
      assertThat(rows.get(i).get(4)).as("refusal of %s", window.label())
          .isEqualTo(window.refusal().map(reason -> "refused: " + reason).orElse(""));
    }
  }

  @Test
  void theWindowsChartLabelsEachBarWithItsBytes() {
    for (StorageReport.WindowResult window : report.windows()) {
      assertThat(shown.windowValue(window.label())).as("bar of %s", window.label()).isEqualTo(shownNumber(window.freed().bytes()));
    }
  }

  @Test
  void theHeadlineAndTablesShowTheReportsNumbers() {
    assertThat(shown.text("reclaimable-now-bytes")).as("reclaimable now").isEqualTo(shownNumber(report.now().freed().bytes()));
    assertThat(shown.text("versions-count")).as("versions").isEqualTo(shownNumber(report.versions().count()));
    assertThat(shown.table("files")).as("files by kind and category").containsExactlyElementsOf(
        report.files().entrySet().stream().map(e -> List.of(e.getKey().kind().name().toLowerCase(Locale.ROOT),
            e.getKey().category().sqlName(), shownNumber(e.getValue().files()), shownNumber(e.getValue().bytes()))).toList());
    assertThat(shown.table("pins")).as("tags and branches").containsExactlyElementsOf(report.pins().stream()
        .map(pin -> List.of(pin.type(), pin.name(), shownNumber(pin.version()), shownNumber(pin.referenced().files()),
            shownNumber(pin.referenced().bytes()))).toList());
    assertThat(shown.versionPoints()).as("a point per version").isEqualTo(report.timeline().size());
  }

  @Test
  void thePageIsSelfContainedAndRunsWithoutErrors() {
    assertThat(shown.requests()).as("requests beyond the file").isEmpty();
    assertThat(shown.errors()).as("script errors").isEmpty();
  }
}
