package dev.lancemaintenance.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.compaction.EngineCompactAction;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalCompactionEngine;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceDbWriter;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our {@code optimize --older-than 0s} against LanceDB's own {@code optimize()} (npm 0.39, Rust
 * Lance 12) on twins of one table of 60 small appends written by LanceDB (issue 16).
 *
 * <p>Python's and Rust's {@code optimize(cleanup_older_than=0)} take {@code now - 0} when the prune
 * starts, after compacting. Node takes an instant, so LanceDB is given one a minute ahead: the same
 * cutoff, since nothing commits in between. The files each side writes carry fresh names, so
 * "file-for-file" means: the same files of the original table remain, the same number of new files
 * of each kind appear, one version is left, and it reads back with the same content.
 */
class LanceDbOptimizeIT {
  private static final int APPENDS = 60;

  @TempDir Path dir;

  @Test
  void aWindowOfZeroReclaimsTheMergedFragmentsAsLanceDbsOwnOptimizeDoes() {
    LanceDbWriter theirs = LanceDbWriter.at(dir.resolve("theirs"), "appends");
    LanceDbWriter.Recipe recipe = theirs.recipe();
    for (int i = 0; i < APPENDS; i++) {
      recipe.append(3);
    }
    recipe.write();
    LanceDbWriter ours = LanceDbWriter.at(dir.resolve("ours"), "appends");
    TableTwins.copy(theirs.root(), ours.root());
    TreeSet<String> original = files(theirs.root());
    TableContent latestBefore = latestContent(theirs);

    LanceDbWriter.CleanupOutcome lancedb = theirs.cleanup(Instant.now().plus(Duration.ofMinutes(1)), false);
    OptimizeResult result = optimize(ours.root()).olderThan(Duration.ZERO).execute();

    assertThat(lancedb.refused()).as("LanceDB's optimize refused").isEmpty();
    assertThat(lancedb.compacted()).as("LanceDB compacted").isTrue();
    assertThat(result.compaction().orElseThrow().counters().fragmentsRemoved()).as("fragments_removed").isEqualTo(APPENDS);
    assertThat(kept(original, ours.root())).as("original files we keep").isEqualTo(kept(original, theirs.root()));
    assertThat(newFilesByKind(original, ours.root())).as("new files by kind, ours")
        .isEqualTo(newFilesByKind(original, theirs.root()));
    assertThat(dataFiles(ours.root())).as("data files left").isEqualTo(1);
    assertThat(ours.readBack().entries()).as("what LanceDB reads of our result")
        .hasSize(1)
        .containsValue(latestBefore);
    assertThat(theirs.readBack().entries()).as("what LanceDB reads of its own result")
        .hasSize(1)
        .containsValue(latestBefore);
  }

  private static OptimizeAction optimize(Path root) {
    TableLocation location = TableLocation.of(root.toUri().toString());
    TableStorageFactory storage = HadoopTableStorage.factory(StorageConf.defaults());
    return new OptimizeAction(
        location,
        storage,
        new EngineCompactAction(CompactionTable.of(location, Map.of()), new LocalCompactionEngine()),
        new LocalCleanupAction(location, storage, Clock.systemUTC()),
        Clock.systemUTC());
  }

  private static TableContent latestContent(LanceDbWriter table) {
    return table.readBack().get("main/v" + APPENDS);
  }

  private static TreeSet<String> kept(TreeSet<String> original, Path root) {
    TreeSet<String> kept = files(root);
    kept.retainAll(original);
    return kept;
  }

  /** Files written by the optimize (not in the original table), counted by top directory. */
  private static SortedMap<String, Integer> newFilesByKind(TreeSet<String> original, Path root) {
    SortedMap<String, Integer> counts = new TreeMap<>();
    for (String path : files(root)) {
      if (!original.contains(path)) {
        counts.merge(path.substring(0, path.indexOf('/')), 1, Integer::sum);
      }
    }
    return counts;
  }

  private static long dataFiles(Path root) {
    return files(root).stream().filter(p -> p.startsWith("data/")).count();
  }

  private static TreeSet<String> files(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      TreeSet<String> files = new TreeSet<>();
      walk.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString())
          .filter(p -> !p.startsWith("_maintenance/"))
          .forEach(files::add);
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
