package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.testing.FixtureRows;
import dev.lancemaintenance.testing.LanceOracle;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.ManifestEdits;
import dev.lancemaintenance.testing.OraclePolicy;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.ScalarIndexKind;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import dev.lancemaintenance.testing.UndeletableFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.lance.Ref;

/**
 * The safety promises every engine keeps on a table it must not trust (issue 12, items 9 to 11
 * and the corrupt-metadata part of the fault matrix): links are never followed out of the table,
 * a delete that fails is a failure, a retained version naming a missing file refuses the run, and
 * damaged metadata is a one-line error naming the table and the file, with zero deletes.
 *
 * <p>One table (appends, a delete, an index, compaction, then the cutoff, two appends and a tag on
 * the latest version, whose first fragment is the compacted file) is written once; each case cleans its own byte-identical copy (no branches or clones, so a copy is a
 * faithful twin). Engines subclass this with their own action, as they do {@link
 * CleanupContractTest}.
 */
public abstract class CleanupSafetyTest {
  /** Unreferenced files this old go under the default policy, as Lance's 7-day rule says. */
  private static final Duration OLD = Duration.ofDays(30);

  @TempDir static Path workDir;

  private static Path pristine;
  private static Instant cutoff;
  private static TreeSet<String> pristineFiles;
  private static TreeSet<String> removedByLance;
  private static Map<Long, TableContent> retained;
  private static final AtomicInteger copies = new AtomicInteger();

  /** A cleanup action of the engine under test, with no policy set yet. */
  protected abstract CleanupAction newCleanup(String tableUri);

  @BeforeAll
  static void writeTableAndCleanATwinWithLance() throws InterruptedException {
    Path dir = workDir.resolve("pristine");
    LanceTableFixture table = LanceTableFixture.create(dir);
    table.append(30);
    table.append(30);
    table.deleteWhere("id % 4 = 0");
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    long compacted = table.compact();
    cutoff = table.manifestTimestamp(compacted).plusMillis(1);
    Thread.sleep(5);
    table.append(30);
    long latest = table.append(30);
    table.tag("current", latest);
    pristine = table.root();
    pristineFiles = files(pristine);

    Path lanceTwin = copyOfPristine();
    LanceOracle.cleanup(lanceTwin, OraclePolicy.builder().beforeTimestamp(cutoff).build());
    removedByLance = minus(pristineFiles, files(lanceTwin));
    retained = new TreeMap<>();
    for (long version : LanceTableFixture.open(lanceTwin).versions()) {
      retained.put(version, ReadBack.read(lanceTwin, Ref.ofMain(version)));
    }
    assertThat(removedByLance).as("Lance removes data files and manifests here")
        .anyMatch(p -> p.startsWith("data/")).anyMatch(p -> p.startsWith("_versions/"));
    assertThat(pristineFiles).as("the fixture keeps a version hint and a tag file")
        .contains(HINT, TAG);
  }

  private static final String HINT = "_versions/latest_version_hint.json";
  private static final String TAG = "_refs/tags/current.json";

  // ---------------------------------------------------------------- item 9: links

  @Test
  void neverFollowsALinkedDirectoryOutOfTheTable() {
    Path table = copyOfPristine();
    Path outside = workDir.resolve("outside-" + copies.incrementAndGet());
    List<Path> behindLinks = List.of(
        plantOld(outside.resolve("index/page_data.lance")),
        plantOld(outside.resolve("data/a.lance")),
        plantOld(outside.resolve("data/b.lance")));
    link(table.resolve("_indices/" + UUID.randomUUID()), outside.resolve("index"));
    link(table.resolve("data/linkdir"), outside.resolve("data"));

    newCleanup(table.toString()).execute();

    assertThat(behindLinks).as("the 30-day-old files behind the links").allMatch(Files::exists);
    assertRetainedVersionsReadBack(table);
  }

  @Test
  void anOldLinkGoesAsAnUnverifiedFileAndItsTargetStays() throws IOException {
    Path table = copyOfPristine();
    Path target = plantOld(workDir.resolve("outside-" + copies.incrementAndGet()).resolve("target.lance"));
    Path link = table.resolve("data/old-link.lance");
    link(link, target);
    Files.getFileAttributeView(link, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
        .setTimes(FileTime.from(Instant.now().minus(OLD)), null, null);

    newCleanup(table.toString()).execute();

    assertThat(target).as("the file outside the table").exists();
    assertThat(Files.exists(link, LinkOption.NOFOLLOW_LINKS)).as("the old unreferenced link itself").isFalse();
  }

  // ---------------------------------------------------------------- item 10: failed deletes

  @Test
  void aDeleteTheFileSystemRefusesIsCountedAndKeepsTheExpiredManifests() {
    Path table = copyOfPristine();
    String stuck = removedByLance.stream().filter(p -> p.startsWith("data/")).findFirst().orElseThrow();
    CleanupResult result;
    try (UndeletableFile ignored = UndeletableFile.make(table.resolve(stuck))) {
      result = newCleanup(table.toString()).beforeTimestamp(cutoff).execute();
    }

    assertThat(result.counters().failedDeletes()).as("failed_deletes").isEqualTo(1);
    TreeSet<String> left = files(table);
    assertThat(left).as("the undeletable file").contains(stuck);
    assertThat(left).as("every expired manifest stays for the next run")
        .containsAll(removedByLance.stream().filter(p -> p.startsWith("_versions/")).toList());
    assertThat(result.counters().oldVersions()).as("old_versions").isZero();
    assertThat(result.counters().dataFilesRemoved())
        .as("data_files_removed: every other data file Lance removes, not the stuck one")
        .isEqualTo(removedByLance.stream().filter(p -> p.startsWith("data/")).count() - 1);
  }

  // ---------------------------------------------------------------- item 11: missing referenced files

  @Test
  void aRetainedVersionNamingAMissingFileRefusesTheRunAndDeletesNothing() {
    Path table = copyOfPristine();
    String missing = renameFirstDataFileOfTheLatestManifest(table);
    TreeSet<String> before = files(table);

    assertThatThrownBy(() -> newCleanup(table.toString()).beforeTimestamp(Instant.now().plusSeconds(60)).execute())
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining(table.getFileName().toString())
        .hasMessageContaining(missing)
        .hasMessageNotContaining("\n");

    assertThat(files(table)).as("files after the refused run").isEqualTo(before);
  }

  @Test
  void aVersionHintAheadOfTheListingRefusesTheRunAndDeletesNothing() throws IOException {
    Path table = copyOfPristine();
    long ahead = LanceTableFixture.open(table).latestVersion() + 5;
    Files.writeString(table.resolve(HINT), "{\"version\":" + ahead + "}");
    TreeSet<String> before = files(table);

    assertThatThrownBy(() -> newCleanup(table.toString()).beforeTimestamp(cutoff).execute())
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining(table.getFileName().toString())
        .hasMessageContaining(HINT)
        .hasMessageContaining("version " + ahead)
        .hasMessageNotContaining("\n");

    assertThat(files(table)).as("files after the refused run").isEqualTo(before);
  }

  /**
   * Changes one hex digit of the first data file the latest manifest names, so that it names a file
   * that does not exist, while older manifests still name the real one. Returns the missing path.
   */
  protected static String renameFirstDataFileOfTheLatestManifest(Path table) {
    Path manifest = table.resolve(latestManifest(table));
    String name = ManifestEdits.firstDataFilePath(manifest);
    int digit = name.lastIndexOf('.') - 1;
    char changed = name.charAt(digit) == 'a' ? 'b' : 'a';
    String renamed = name.substring(0, digit) + changed + name.substring(digit + 1);
    ManifestEdits.replaceFirstDataFilePath(manifest, renamed);
    return "data/" + renamed;
  }

  // ---------------------------------------------------------------- fault matrix: corrupt metadata

  /** A file of the table's metadata that a run must be able to read. */
  private enum Target {
    LATEST_MANIFEST("latest manifest"),
    EXPIRED_MANIFEST("expired manifest"),
    TAG_FILE("tag file"),
    VERSION_HINT("version hint");

    final String label;

    Target(String label) {
      this.label = label;
    }

    String path(Path table) {
      return switch (this) {
        case LATEST_MANIFEST -> latestManifest(table);
        case EXPIRED_MANIFEST -> removedByLance.stream().filter(p -> p.startsWith("_versions/")).findFirst().orElseThrow();
        case TAG_FILE -> TAG;
        case VERSION_HINT -> HINT;
      };
    }
  }

  /** How the file is damaged. */
  private enum Damage {
    TRUNCATED("truncated"),
    ZERO_BYTES("zero bytes"),
    BIT_FLIPPED("one bit flipped"),
    GARBAGE("garbage");

    final String label;

    Damage(String label) {
      this.label = label;
    }

    void apply(Target target, Path file) throws IOException {
      byte[] original = Files.readAllBytes(file);
      switch (this) {
        case TRUNCATED -> Files.write(file, Arrays.copyOf(original, original.length / 2));
        case ZERO_BYTES -> Files.write(file, new byte[0]);
        case BIT_FLIPPED -> {
          if (target == Target.LATEST_MANIFEST || target == Target.EXPIRED_MANIFEST) {
            ManifestEdits.flipFirstMessageBit(file);
          } else {
            // The opening brace of the JSON becomes 'z'.
            original[0] ^= 1;
            Files.write(file, original);
          }
        }
        case GARBAGE -> {
          byte[] garbage = new byte[original.length];
          new Random(original.length).nextBytes(garbage);
          Files.write(file, garbage);
        }
      }
    }
  }

  @TestFactory
  DynamicContainer corruptMetadataFailsNamingTableAndFileAndDeletesNothing() {
    List<DynamicTest> cases = Stream.of(Target.values())
        .flatMap(target -> Stream.of(Damage.values()).map(damage ->
            DynamicTest.dynamicTest(target.label + ", " + damage.label, () -> checkCorrupt(target, damage))))
        .toList();
    return DynamicContainer.dynamicContainer("corrupt metadata: " + cases.size() + " cases", cases);
  }

  private void checkCorrupt(Target target, Damage damage) throws IOException {
    Path table = copyOfPristine();
    String file = target.path(table);
    damage.apply(target, table.resolve(file));
    TreeSet<String> before = files(table);

    assertThatThrownBy(() -> newCleanup(table.toString()).beforeTimestamp(cutoff).execute())
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining(table.getFileName().toString())
        .hasMessageContaining(file)
        .hasMessageNotContaining("\n");

    assertThat(files(table)).as("files after the failed run").isEqualTo(before);
  }

  // ---------------------------------------------------------------- helpers

  /** The table-relative path of the newest manifest (V2 names sort newest first). */
  protected static String latestManifest(Path table) {
    try (Stream<Path> manifests = Files.list(table.resolve("_versions"))) {
      return "_versions/" + manifests.map(p -> p.getFileName().toString())
          .filter(name -> name.endsWith(".manifest"))
          .sorted()
          .findFirst()
          .orElseThrow();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  protected static Path copyOfPristine() {
    Path copy = workDir.resolve("copy-" + copies.incrementAndGet());
    TableTwins.copy(pristine, copy);
    return copy;
  }

  protected static Instant cutoff() {
    return cutoff;
  }

  protected static TreeSet<String> removedByLance() {
    return removedByLance;
  }

  protected static void assertRetainedVersionsReadBack(Path table) {
    retained.forEach((version, content) ->
        assertThat(ReadBack.read(table, Ref.ofMain(version))).as("v%d reads back", version).isEqualTo(content));
  }

  private static Path plantOld(Path file) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, "not the table's".getBytes(StandardCharsets.UTF_8));
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(OLD)));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void link(Path link, Path target) {
    try {
      Files.createDirectories(link.getParent());
      Files.createSymbolicLink(link, target);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  protected static TreeSet<String> files(Path table) {
    return new TreeSet<>(LanceTableFixture.open(table).listFiles());
  }

  private static TreeSet<String> minus(TreeSet<String> a, TreeSet<String> b) {
    TreeSet<String> result = new TreeSet<>(a);
    result.removeAll(b);
    return result;
  }
}
