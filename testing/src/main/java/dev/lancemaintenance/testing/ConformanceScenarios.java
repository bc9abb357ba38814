package dev.lancemaintenance.testing;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/**
 * Named real tables for the cleanup conformance suite, each small enough to build in a few
 * seconds. Every scenario writes its table under {@code dir/<name>} (clones beside it) and labels
 * the cutoffs worth cleaning at: {@code after-vN} instants and version numbers.
 */
public final class ConformanceScenarios {
  /** Beyond Lance's 7-day threshold for files no manifest vouches for. */
  public static final Duration OLD = Duration.ofDays(30);
  /** Older than every manifest but within the 7-day threshold. */
  public static final Duration RECENT = Duration.ofDays(1);

  private ConformanceScenarios() {}

  /** Five appends of 20 rows. */
  public static Scenario appends(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("appends"));
    ScenarioBuilder scenario = new ScenarioBuilder("appends", table);
    for (int i = 1; i <= 5; i++) {
      long v = table.append(20);
      scenario.cutoffAfter("after-v" + v, v);
    }
    return scenario.version("v3", 3).build();
  }

  /**
   * Predicate deletes: {@code .arrow} deletion files, one replaced by a second delete on the same
   * fragment, and a delete of more than 5000 rows of one fragment ({@code .bin}).
   */
  public static Scenario deletes(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("deletes"));
    ScenarioBuilder scenario = new ScenarioBuilder("deletes", table);
    long v1 = table.append(100);
    table.append(100);
    long v3 = table.deleteWhere("id % 10 = 0");
    scenario.cutoffAfter("after-v3", v3);
    long v4 = table.deleteWhere("id % 10 = 1");
    scenario.cutoffAfter("after-v4", v4);
    long v5 = table.append(6000);
    long v6 = table.deleteWhere(
        "id >= " + LanceTableFixture.firstId(v5) + " AND id < " + (LanceTableFixture.firstId(v5) + 5500));
    scenario.cutoffAfter("after-v6", v6);
    long v7 = table.deleteWhere("id = " + (LanceTableFixture.firstId(v1) + 55));
    return scenario.version("first-delete", v3).version("latest", v7).build();
  }

  /** Merge-insert updates of rows in older fragments. */
  public static Scenario updates(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("updates"));
    ScenarioBuilder scenario = new ScenarioBuilder("updates", table);
    long v1 = table.append(50);
    long v2 = table.append(50);
    long v3 = table.update(LanceTableFixture.firstId(v1), 10);
    scenario.cutoffAfter("after-v3", v3);
    long v4 = table.update(LanceTableFixture.firstId(v2) + 5, 10);
    scenario.cutoffAfter("after-v4", v4);
    long v5 = table.update(LanceTableFixture.firstId(v1), 3);
    return scenario.version("v4", v4).version("latest", v5).build();
  }

  /** v1 append, v2 overwrite, v3 append: everything of v1 is unreferenced from v2 on. */
  public static Scenario overwrite(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("overwrite"));
    ScenarioBuilder scenario = new ScenarioBuilder("overwrite", table);
    long v1 = table.append(10);
    scenario.cutoffAfter("after-v1", v1);
    long v2 = table.overwrite(10);
    scenario.cutoffAfter("after-v2", v2);
    table.append(10);
    return scenario.version("v2", v2).build();
  }

  /** BTREE, BITMAP and IVF_FLAT indices, each rebuilt after more data arrived. */
  public static Scenario indices(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("indices"));
    ScenarioBuilder scenario = new ScenarioBuilder("indices", table);
    table.append(100);
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    table.createScalarIndex(FixtureRows.NAME, ScalarIndexKind.BITMAP);
    long v4 = table.createVectorIndex(FixtureRows.VEC);
    scenario.cutoffAfter("after-v4", v4);
    table.append(100);
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    long v7 = table.createVectorIndex(FixtureRows.VEC);
    scenario.cutoffAfter("after-v7", v7);
    table.append(50);
    long latest = table.createScalarIndex(FixtureRows.NAME, ScalarIndexKind.BITMAP);
    return scenario.version("v7", v7).version("latest", latest).build();
  }

  /** 100 appends of two rows, a delete, then compaction (which commits twice). */
  public static Scenario compaction(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("compaction"));
    ScenarioBuilder scenario = new ScenarioBuilder("compaction", table);
    long last = 0;
    for (int i = 0; i < 100; i++) {
      last = table.append(2);
    }
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    long deleted = table.deleteWhere("id % 7 = 0");
    scenario.cutoffAfter("before-compaction", deleted);
    long compacted = table.compact();
    return scenario.version("v50", 50).version("last-append", last).version("compacted", compacted).build();
  }

  /** Tag {@code old} on v1 and {@code latest} on the latest version. */
  public static Scenario tags(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("tags"));
    ScenarioBuilder scenario = new ScenarioBuilder("tags", table);
    long v1 = table.append(10);
    table.append(10);
    table.deleteWhere("id % 2 = 0");
    long v4 = table.append(10);
    scenario.cutoffAfter("after-v4", v4);
    table.tag("old", v1);
    table.tag("latest", v4);
    return scenario.version("tagged-old", v1).version("latest", v4).build();
  }

  /** Branch b1 forked from main v2, b2 forked from b1; main and both branches move on. */
  public static Scenario branches(Path dir) {
    LanceTableFixture main = LanceTableFixture.create(dir.resolve("branches"));
    ScenarioBuilder scenario = new ScenarioBuilder("branches", main);
    main.append(10);
    long v2 = main.append(10);
    LanceTableFixture b1 = main.createBranch("b1", v2);
    b1.append(10);
    long b1v4 = b1.deleteWhere("id % 3 = 0");
    LanceTableFixture b2 = b1.createBranch("b2", b1v4);
    long b2v5 = b2.append(10);
    main.append(10);
    long v4 = main.deleteWhere("id % 5 = 0");
    scenario.cutoffAfter("after-v4", v4);
    scenario.cutoffAfter("b1-after-v4", b1, b1v4);
    long v5 = main.append(10);
    b1.append(10);
    return scenario
        .version("fork-b1", v2)
        .version("fork-b2", b1v4)
        .version("b2-latest", b2v5)
        .version("latest", v5)
        .related("b1", b1)
        .related("b2", b2)
        .build();
  }

  /**
   * Branches that ask for cleanup in their own config ({@code lance.auto_cleanup.*}, set through
   * the SDK on the branch checkout), which {@code clean_referenced_branches} follows: {@code every}
   * (interval 1, no time bound) and {@code aged} (interval 1, older than {@code 2h 30m}) forked
   * from v2, {@code plain} (no config) forked from v1; main is then overwritten, so the fork points'
   * files live on only through the branches.
   */
  public static Scenario autoCleanupBranches(Path dir) {
    LanceTableFixture main = LanceTableFixture.create(dir.resolve("auto-cleanup-branches"));
    ScenarioBuilder scenario = new ScenarioBuilder("auto-cleanup-branches", main);
    long v1 = main.append(10);
    long v2 = main.append(10);
    LanceTableFixture plain = main.createBranch("plain", v1);
    plain.append(5);
    plain.deleteWhere("id % 2 = 0");
    LanceTableFixture every = main.createBranch("every", v2);
    every.append(10);
    every.deleteWhere("id % 3 = 0");
    every.updateConfig(Map.of("lance.auto_cleanup.interval", "1"));
    every.append(5);
    LanceTableFixture aged = main.createBranch("aged", v2);
    aged.append(10);
    aged.updateConfig(Map.of("lance.auto_cleanup.interval", "1", "lance.auto_cleanup.older_than", "2h 30m"));
    aged.deleteWhere("id % 4 = 0");
    long v3 = main.overwrite(10);
    scenario.cutoffAfter("after-v3", v3);
    main.append(10);
    return scenario
        .version("fork-plain", v1)
        .version("fork-every", v2)
        .related("plain", plain)
        .related("every", every)
        .related("aged", aged)
        .build();
  }

  /**
   * A clone of untagged v1 (whose data file only v1 references once v2 overwrites it: the source's
   * cleanup breaks that clone) and a clone of tagged v2 (the tag protects it); the clones write on
   * their own.
   */
  public static Scenario shallowClone(Path dir) {
    LanceTableFixture source = LanceTableFixture.create(dir.resolve("clone-source"));
    ScenarioBuilder scenario = new ScenarioBuilder("shallow-clone", source);
    long v1 = source.append(10);
    LanceTableFixture untagged = source.shallowClone(dir.resolve("clone-of-v1"), v1);
    long v2 = source.overwrite(10);
    source.tag("for-clone", v2);
    LanceTableFixture tagged = source.shallowCloneOfTag(dir.resolve("clone-of-tag"), "for-clone");
    untagged.append(5);
    tagged.deleteWhere("id % 2 = 0");
    long v3 = source.append(10);
    scenario.cutoffAfter("after-v3", v3);
    source.append(10);
    return scenario
        .version("cloned-untagged", v1)
        .version("cloned-tagged", v2)
        .related("clone-of-v1", untagged)
        .related("clone-of-tag", tagged)
        .build();
  }

  /**
   * A blob v2 column ({@link BlobRows}): payloads up to the dedicated threshold stay in the data
   * file, larger ones go to sidecars {@code data/<stem>/<n>.blob}. A delete inside a fragment, then
   * one that drops a whole fragment, so a data file and its sidecars become unreferenced.
   */
  public static Scenario blobs(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("blobs"));
    ScenarioBuilder scenario = new ScenarioBuilder("blobs", table);
    int big = BlobRows.DEDICATED_THRESHOLD;
    long v1 = BlobRows.append(table, LanceTableFixture.firstId(1), 100, big + 1, 2 * big);
    scenario.cutoffAfter("after-v1", v1);
    BlobRows.append(table, LanceTableFixture.firstId(2), big + 1, 10, big);
    long v3 = table.deleteWhere("id = " + LanceTableFixture.firstId(2));
    long v4 = table.deleteWhere("id < " + LanceTableFixture.firstId(2));
    scenario.cutoffAfter("after-v4", v4);
    long latest = BlobRows.append(table, LanceTableFixture.firstId(5), 2 * big);
    return scenario.version("v3", v3).version("latest", latest).build();
  }

  /** Appends and a delete with V1 manifest names ({@code N.manifest}). */
  public static Scenario v1Manifests(Path dir) {
    LanceTableFixture table =
        LanceTableFixture.create(dir.resolve("v1-manifests"), FixtureOptions.defaults().withV1ManifestNames());
    ScenarioBuilder scenario = new ScenarioBuilder("v1-manifests", table);
    table.append(10);
    long v2 = table.append(10);
    scenario.cutoffAfter("after-v2", v2);
    table.deleteWhere("id % 2 = 0");
    table.append(10);
    return scenario.version("v2", v2).build();
  }

  /**
   * Files no manifest references, planted in every place cleanup looks (and some it ignores), at
   * three ages: {@link #OLD}, {@link #RECENT} and after the last commit ("fresh").
   */
  public static Scenario plantedFiles(Path dir) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("planted"));
    ScenarioBuilder scenario = new ScenarioBuilder("planted", table);
    table.append(10);
    table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
    long v3 = table.deleteWhere("id % 2 = 0");
    scenario.cutoffAfter("after-v3", v3);
    long latest = table.append(10);
    Instant now = Instant.now();
    plantAll(table, "old", now.minus(OLD));
    plantAll(table, "recent", now.minus(RECENT));
    plantAll(table, "fresh", now.plus(Duration.ofMinutes(1)));
    return scenario.version("latest", latest).build();
  }

  /** A seeded random sequence of verbs; the same seed writes the same history shape. */
  public static Scenario randomMix(Path dir, long seed) {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("random-" + seed));
    ScenarioBuilder scenario = new ScenarioBuilder("random-" + seed, table);
    Random random = new Random(seed);
    table.append(20 + random.nextInt(20));
    for (int step = 0; step < 14; step++) {
      long v = randomVerb(table, random);
      if (step % 4 == 3) {
        scenario.cutoffAfter("after-v" + v, v);
      }
    }
    return scenario.version("latest", table.latestVersion()).build();
  }

  private static long randomVerb(LanceTableFixture table, Random random) {
    long latest = table.latestVersion();
    return switch (random.nextInt(7)) {
      case 0, 1 -> table.append(5 + random.nextInt(30));
      case 2 -> table.deleteWhere("id % " + (3 + random.nextInt(5)) + " = " + random.nextInt(3));
      case 3 -> table.update(LanceTableFixture.firstId(1 + random.nextInt((int) latest)), 5);
      case 4 -> table.createScalarIndex(FixtureRows.ID, ScalarIndexKind.BTREE);
      case 5 -> table.compact();
      default -> table.overwrite(10 + random.nextInt(10));
    };
  }

  private static void plantAll(LanceTableFixture table, String age, Instant mtime) {
    byte[] junk = ("planted " + age).getBytes(StandardCharsets.UTF_8);
    table.plant("data/planted-" + age + ".lance", junk, mtime);
    table.plant("data/planted-" + age + ".txt", junk, mtime);
    table.plant("_deletions/0-99-" + age.length() + ".arrow", junk, mtime);
    table.plant("_transactions/99-planted-" + age + ".txn", junk, mtime);
    table.plant("_indices/" + UUID.nameUUIDFromBytes(junk) + "/index.idx", junk, mtime);
    table.plant("_versions/.tmp_planted_" + age, junk, mtime);
    table.plant("planted-" + age + ".lance", junk, mtime);
  }
}
