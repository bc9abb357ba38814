package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.FileTimes;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.OrphanedTable;
import dev.lancemaintenance.testing.TableTwins;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local engine lists names where a directory has no subdirectory and reads a file's time only
 * when no retained version references it; the decision is still the SDK's: an unreferenced file's
 * own time decides whether it goes, whether its directory was listed by name or in full.
 */
class ListingWithoutAttributesIT {
  @TempDir Path dir;

  @Test
  void anOrphansOwnTimeDecidesInADirectoryListedByName() {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("t.lance"));

    List<String> left = cleanLikeTheSdk(orphaned);

    assertThat(left).doesNotContain(orphaned.oldOrphan()).contains(orphaned.freshOrphan());
  }

  @Test
  void aDirectoryNamedAsADataFileIsWalkedAndItsOldFilesGoAsTheSdksDo() {
    OrphanedTable orphaned = OrphanedTable.write(dir.resolve("t.lance"));
    String deepOld = "data/nested.lance/old.lance";
    String deepFresh = "data/nested.lance/fresh.lance";
    orphaned.table().plant(deepOld, new byte[] {1}, Instant.now().minus(Duration.ofDays(10)));
    orphaned.table().plant(deepFresh, new byte[] {2}, Instant.now());

    List<String> left = cleanLikeTheSdk(orphaned);

    assertThat(left).doesNotContain(orphaned.oldOrphan(), deepOld).contains(orphaned.freshOrphan(), deepFresh);
  }

  /** Cleans the table with the default window and returns what is left, checked against the SDK's twin. */
  private List<String> cleanLikeTheSdk(OrphanedTable orphaned) {
    Path table = orphaned.table().root();
    Path pristine = dir.resolve("pristine");
    TableTwins.copy(table, pristine);
    Instant now = Instant.now();

    new LocalCleanupAction(TableLocation.of(table.toString()), HadoopTableStorage.factory(StorageConf.defaults()),
            Clock.fixed(now, java.time.ZoneOffset.UTC))
        .execute();

    List<String> left = FileTimes.listFiles(table);
    assertThat(left).as("the same files as the SDK's cleanup on a twin").containsExactlyElementsOf(TableTwins.filesTheSdkLeaves(
        pristine, dir.resolve("sdk"), OraclePolicy.builder().beforeTimestamp(now.minus(Duration.ofDays(7))).build()));
    return left;
  }
}
