package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.testing.KeptManifests;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * The one place we deliberately keep more than Lance 7 (docs/cleanup-semantics.md, section 4): a
 * branch records its parent's root as the string the table was opened with, and Lance protects the
 * fork point only when the table is cleaned through that same string. Cleaned through another
 * spelling of the same directory, Lance deletes the fork-point manifest and the files the branch
 * reads, and the branch no longer opens. Ours canonicalises both sides and keeps them.
 *
 * <p>One table with branch {@code b1} forked from v2, then overwritten on main, is written once and restored at its own path
 * before each run (a copy elsewhere would not be a twin: the branch names the original path).
 */
class ForkPointSpellingIT {
  @TempDir static Path workDir;

  private static Path table;
  private static Path pristine;
  private static String forkPointManifest;
  private static TableContent branchBefore;
  private static TreeSet<String> lanceFilesThroughTheRecordedSpelling;
  private static Instant everythingOld;

  @BeforeAll
  static void writeTableWithBranchAndCleanItWithLanceThroughTheRecordedSpelling() {
    LanceTableFixture main = LanceTableFixture.create(workDir.resolve("forked"));
    main.append(10);
    long fork = main.append(10);
    main.createBranch("b1", fork).append(10);
    // Main drops the data the branch still reads, so only the branch protects those files.
    main.overwrite(10);
    main.append(10);
    table = main.root();
    everythingOld = Instant.now().plus(Duration.ofMinutes(1));
    forkPointManifest = manifestOf(fork);
    branchBefore = ReadBack.read(table, Ref.ofBranch("b1"));
    assertThat(branchBefore).isInstanceOf(TableContent.Readable.class);
    pristine = workDir.resolve("pristine");
    TableTwins.copy(table, pristine);

    LanceOracle.cleanup(table, policy());
    lanceFilesThroughTheRecordedSpelling = files();
    assertThat(lanceFilesThroughTheRecordedSpelling)
        .as("Lance keeps the fork point when opened through the recorded path")
        .contains(forkPointManifest);
  }

  /**
   * Other spellings of the table's directory than the absolute path the branch recorded: a URI, a
   * trailing slash, {@code /./}, a path relative to the working directory and a symbolic link to
   * the table's parent directory.
   */
  static List<String> spellings() throws IOException {
    Path root = workDir.resolve("forked").toAbsolutePath().normalize();
    Path link = workDir.resolve("link-to-parent");
    if (!Files.exists(link, LinkOption.NOFOLLOW_LINKS)) {
      Files.createSymbolicLink(link, root.getParent());
    }
    return List.of(
        root.toUri().toString(),
        root + "/",
        root.getParent() + "/./" + root.getFileName(),
        Path.of("").toAbsolutePath().relativize(root).toString(),
        link.resolve(root.getFileName()).toString());
  }

  @ParameterizedTest
  @MethodSource("spellings")
  void ourCleanupThroughAnotherSpellingKeepsTheForkPointAndTheBranchStillReads(String spelling) {
    restore();

    new LocalCleanupAction(TableLocation.of(spelling), HadoopTableStorage.factory(StorageConf.defaults()), Clock.systemUTC())
        .beforeTimestamp(everythingOld)
        .execute();

    assertThat(files())
        .as("ours through %s leaves what Lance leaves through the recorded path", spelling)
        .isEqualTo(lanceFilesThroughTheRecordedSpelling);
    assertThat(ReadBack.read(table, Ref.ofBranch("b1"))).as("branch b1 after our cleanup").isEqualTo(branchBefore);
    KeptManifests.assertEveryManifestReadsBack(table);
  }

  @ParameterizedTest
  @MethodSource("spellings")
  void lanceCleanupThroughAnotherSpellingDeletesTheForkPointAndBreaksTheBranch(String spelling) {
    restore();

    OracleOutcome outcome = LanceOracle.cleanupThrough(spelling, policy());

    assertThat(outcome).isInstanceOf(OracleOutcome.Removed.class);
    assertThat(files()).as("Lance 7 through %s", spelling).doesNotContain(forkPointManifest);
    assertThat(ReadBack.failureReading(table, Ref.ofBranch("b1")))
        .as("branch b1 after Lance's cleanup through %s", spelling)
        .isPresent();
  }

  private static OraclePolicy policy() {
    return OraclePolicy.builder().beforeTimestamp(everythingOld).build();
  }

  private static String manifestOf(long version) {
    TreeSet<String> before = files();
    return before.stream()
        .filter(path -> path.startsWith("_versions/") && path.endsWith(".manifest"))
        .filter(path -> versionOf(path) == version)
        .findFirst()
        .orElseThrow();
  }

  /** Both naming schemes: {@code N.manifest} and the 20-digit {@code u64::MAX - N}. */
  private static long versionOf(String manifestPath) {
    String name = manifestPath.substring("_versions/".length(), manifestPath.length() - ".manifest".length());
    return name.length() == 20 ? -1L - Long.parseUnsignedLong(name) : Long.parseLong(name);
  }

  private static TreeSet<String> files() {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  private static void restore() {
    TableTwins.restore(pristine, table);
  }
}
