package dev.lancemaintenance.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The conformance shapes written by LanceDB ({@link LanceDbWriter}), each in its own working
 * directory {@code dir/<name>} with the database at {@code ./db}. Every history ends with a
 * compaction, so that LanceDB's cleanup ({@code optimize}, which compacts first) finds nothing to
 * compact and is a pure cleanup that can be compared with ours.
 */
public final class LanceDbScenarios {
  private static final long CUTOFF_GAP_MILLIS = 5;

  private LanceDbScenarios() {}

  /**
   * A LanceDB table and the cutoffs worth cleaning at.
   *
   * @param branches the table's branches (each may be cleaned on its own)
   * @param mainLineNamesOtherRoots whether main-line manifests read files through (relative) base
   *     paths, as a shallow clone's do: then only LanceDB, in the writer's directory, reads them
   */
  public record LanceDbScenario(
      String name, LanceDbWriter writer, SortedMap<String, Instant> instants, List<String> branches,
      boolean mainLineNamesOtherRoots) {}

  /**
   * Issue 12, item 1: ten appends, branch {@code feature} from v3 with two commits of its own (an
   * append and a delete), then a compaction on main. LanceDB records the branch's base path as
   * {@code ./db/branch.lance}.
   */
  public static LanceDbScenario relativeBranch(Path dir) {
    LanceDbWriter writer = LanceDbWriter.at(dir.resolve("relative-branch"), "branch");
    History history = new History(writer);
    for (int i = 1; i <= 10; i++) {
      history.recipe.append(10);
      if (i == 5) {
        history.cutoff("after-v5");
      }
    }
    history.recipe.branch("feature", 3).appendOn("feature", 5).deleteOn("feature", "id % 2 = 0").compact();
    return history.write("relative-branch", List.of("feature"), false);
  }

  /**
   * Appends, deletes (deletion files), an update, BTREE and BITMAP indices rebuilt after more data,
   * a compaction; then files no manifest names, 30 days and 1 day old, where cleanup looks.
   */
  public static LanceDbScenario historyWithUnverifiedFiles(Path dir) {
    LanceDbWriter writer = LanceDbWriter.at(dir.resolve("history"), "history");
    History history = new History(writer);
    history.recipe.append(50).append(50).delete("id % 10 = 0").index("id", "btree");
    history.cutoff("after-index");
    history.recipe.update("id % 10 = 3").append(20).index("name", "bitmap").delete("id % 10 = 1");
    history.cutoff("after-second-delete");
    history.recipe.append(20).index("id", "btree").compact();
    LanceDbScenario scenario = history.write("history", List.of(), false);
    Instant now = Instant.now();
    plant(writer, "old", now.minus(ConformanceScenarios.OLD));
    plant(writer, "recent", now.minus(ConformanceScenarios.RECENT));
    return scenario;
  }

  /**
   * A shallow clone ({@code cloneTable(..., isShallow)}) of v1 of a source that is then overwritten;
   * the clone appends and compacts on its own, and it is the clone that is cleaned. LanceDB records
   * the clone's base path as the source was named, {@code ./db/clone-source.lance}: relative, and
   * naming no part of the clone's root, so ours counts it as the clone itself (it cannot tell), which
   * keeps at most files the clone does not have.
   */
  public static LanceDbScenario shallowClone(Path dir) {
    Path workDir = dir.resolve("shallow-clone");
    LanceDbWriter.at(workDir, "clone-source").recipe().append(10).shallowClone("clone", 1).overwrite(10).write();
    LanceDbWriter clone = LanceDbWriter.at(workDir, "clone");
    History history = new History(clone);
    history.recipe.append(5);
    history.cutoff("after-first-append");
    history.recipe.append(5).delete("id % 2 = 0").compact();
    return history.write("shallow-clone", List.of(), true);
  }

  /** A tag on an old version: LanceDB's cleanup, like the SDK's by default, refuses to drop it. */
  public static LanceDbScenario tags(Path dir) {
    LanceDbWriter writer = LanceDbWriter.at(dir.resolve("tags"), "tags");
    History history = new History(writer);
    history.recipe.append(10).append(10).tag("first", 1).delete("id % 2 = 0");
    history.cutoff("after-delete");
    history.recipe.append(10).compact();
    return history.write("tags", List.of(), false);
  }

  private static void plant(LanceDbWriter writer, String age, Instant mtime) {
    LanceTableFixture files = LanceTableFixture.open(writer.root());
    byte[] junk = ("planted " + age).getBytes(StandardCharsets.UTF_8);
    files.plant("data/planted-" + age + ".lance", junk, mtime);
    files.plant("_deletions/0-99-" + age.length() + ".arrow", junk, mtime);
    files.plant("_transactions/99-planted-" + age + ".txn", junk, mtime);
    files.plant("_indices/" + UUID.nameUUIDFromBytes(junk) + "/index.idx", junk, mtime);
  }

  /** A recipe and the labels of the cutoffs taken after some of its steps. */
  private static final class History {
    final LanceDbWriter writer;
    final LanceDbWriter.Recipe recipe;
    final Map<String, Integer> cutoffSteps = new TreeMap<>();

    History(LanceDbWriter writer) {
      this.writer = writer;
      this.recipe = writer.recipe();
    }

    /** An instant after the last step's commit; the pause keeps the next commit after it. */
    void cutoff(String label) {
      cutoffSteps.put(label, recipe.size() - 1);
      recipe.pause(CUTOFF_GAP_MILLIS);
    }

    LanceDbScenario write(String name, List<String> branches, boolean mainLineNamesOtherRoots) {
      List<JsonNode> results = recipe.write();
      SortedMap<String, Instant> instants = new TreeMap<>();
      cutoffSteps.forEach((label, step) ->
          instants.put(label, Instant.ofEpochMilli(results.get(step).get("timestampMillis").asLong() + 1)));
      return new LanceDbScenario(name, writer, instants, branches, mainLineNamesOtherRoots);
    }
  }
}
