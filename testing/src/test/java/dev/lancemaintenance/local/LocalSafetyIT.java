package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupSafetyTest;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The local engine keeps the safety promises; several partitions and small slices make every case
 * cross partition and slice boundaries. Also records what Lance itself does where we refuse.
 */
class LocalSafetyIT extends CleanupSafetyTest {
  @Override
  protected CleanupAction newCleanup(String tableUri) {
    return new LocalCleanupAction(
            TableLocation.of(tableUri), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .parallelism(4)
        .partitions(5)
        .sliceSize(2);
  }

  /**
   * Where a retained version names a file that is not there, Lance 7 cleans up regardless and
   * deletes the real file that only older versions name: the only copy of those rows. Refusing is
   * strictly safer, so there we part from Lance on purpose.
   */
  @Test
  void lanceItselfDeletesTheRealFileWhenTheLatestManifestNamesAMissingOne() {
    Path table = copyOfPristine();
    String missing = renameFirstDataFileOfTheLatestManifest(table);
    String real = missing.substring(0, missing.lastIndexOf('.') - 1);
    Path realFile = files(table).stream()
        .filter(path -> path.startsWith(real) && !path.equals(missing))
        .map(table::resolve)
        .findFirst()
        .orElseThrow();

    OracleOutcome outcome = LanceOracle.cleanup(table, OraclePolicy.builder().beforeTimestamp(Instant.now().plusSeconds(60)).build());

    assertThat(outcome).as("Lance's cleanup").isInstanceOf(OracleOutcome.Removed.class);
    assertThat(Files.exists(realFile)).as("the real file %s after Lance's cleanup", realFile).isFalse();
  }
}
