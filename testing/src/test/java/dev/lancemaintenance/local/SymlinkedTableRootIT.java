package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12, item 8: a table with branches ({@code b1} forked from main v2, {@code b2} from b1 v4,
 * both fork points' files read only by the branches) written through its real path and cleaned through a symbolic link to it, and one written through a
 * link and cleaned through the real path. The branches record the spelling they were written
 * through; ours resolves both sides to the real path and leaves exactly what Lance leaves when
 * cleaned through the recorded spelling, on main and on branch {@code b1} (whose deletion file b2
 * reads), and every manifest left reads back in full.
 */
class SymlinkedTableRootIT {
  @TempDir static Path workDir;

  private static Twin writtenThroughRealPath;
  private static Twin writtenThroughLink;

  /**
   * A table as written, its pristine copy, the spelling to clean it through and what Lance leaves
   * when cleaned through the recorded spelling, on main and on b1.
   */
  record Twin(String name, Path recorded, Path other, Path pristine, TreeSet<String> lanceMain, TreeSet<String> lanceB1) {
    @Override
    public String toString() {
      return name;
    }

    void restore() {
      TableTwins.restore(pristine, recorded);
    }
  }

  @BeforeAll
  static void writeTablesAndCleanThemWithLanceThroughTheRecordedSpelling() throws IOException {
    Path real = Files.createDirectories(workDir.resolve("real-a"));
    Path link = Files.createSymbolicLink(workDir.resolve("link-a"), real);
    writtenThroughRealPath = twin("written through the real path, cleaned through a link", real, link);

    Path realB = Files.createDirectories(workDir.resolve("real-b"));
    Path linkB = Files.createSymbolicLink(workDir.resolve("link-b"), realB);
    writtenThroughLink = twin("written through a link, cleaned through the real path", linkB, realB);
  }

  private static Twin twin(String name, Path writeDir, Path cleanDir) {
    Path recorded = writeBranches(writeDir.resolve("branches"));
    Path other = cleanDir.resolve(recorded.getFileName());
    Path pristine = workDir.resolve("pristine-" + writeDir.getFileName());
    TableTwins.copy(recorded, pristine);
    OraclePolicy everythingOld = OraclePolicy.builder().beforeTimestamp(everythingOld()).build();

    assertThat(LanceOracle.cleanup(recorded, everythingOld)).isInstanceOf(OracleOutcome.Removed.class);
    TreeSet<String> lanceMain = files(recorded);
    TableTwins.restore(pristine, recorded);
    assertThat(LanceOracle.cleanupBranch(recorded, "b1", everythingOld)).isInstanceOf(OracleOutcome.Removed.class);
    TreeSet<String> lanceB1 = files(recorded);
    Twin twin = new Twin(name, recorded, other, pristine, lanceMain, lanceB1);
    twin.restore();
    return twin;
  }

  /**
   * Main v1, v2; b1 from v2 appends (v3) and deletes (v4, deletion files in {@code tree/b1}); b2
   * from b1 v4 appends; b1 deletes again, so its latest version no longer names the v4 deletion
   * files; main is overwritten. What the fork points hold now lives on only through the branches.
   */
  private static Path writeBranches(Path dir) {
    LanceTableFixture main = LanceTableFixture.create(dir);
    main.append(10);
    long v2 = main.append(10);
    LanceTableFixture b1 = main.createBranch("b1", v2);
    b1.append(10);
    long b1v4 = b1.deleteWhere("id % 3 = 0");
    b1.createBranch("b2", b1v4).append(10);
    b1.deleteWhere("id % 3 = 1");
    main.overwrite(10);
    main.append(10);
    return main.root();
  }

  static Stream<Arguments> cases() {
    return Stream.of(writtenThroughRealPath, writtenThroughLink)
        .flatMap(twin -> Stream.of(Arguments.of(twin, Optional.empty()), Arguments.of(twin, Optional.of("b1"))));
  }

  @ParameterizedTest(name = "{0}, branch {1}")
  @MethodSource("cases")
  void ourCleanupThroughTheOtherSpellingLeavesWhatLanceLeavesThroughTheRecordedOne(Twin twin, Optional<String> branch) {
    twin.restore();

    CleanupAction cleanup = new LocalCleanupAction(
            TableLocation.of(twin.other().toString()), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .beforeTimestamp(everythingOld());
    branch.ifPresent(cleanup::branch);
    cleanup.execute();

    TreeSet<String> lance = branch.isPresent() ? twin.lanceB1() : twin.lanceMain();
    TreeSet<String> ours = files(twin.recorded());
    assertThat(ours)
        .as("ours through %s vs Lance through %s (ours minus Lance: %s; Lance minus ours: %s)",
            twin.other(), twin.recorded(), minus(ours, lance), minus(lance, ours))
        .isEqualTo(lance);
    KeptManifests.assertEveryManifestReadsBack(twin.recorded());
  }

  private static Instant everythingOld() {
    return Instant.now().plus(Duration.ofMinutes(1));
  }

  private static TreeSet<String> files(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> result = new TreeSet<>(a);
    result.removeAll(b);
    return result;
  }

}
