package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lancemaintenance.format.SdkView;
import dev.lancemaintenance.testing.FixtureOptions;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect --json} reports exactly what the official SDK reports, on tables the SDK wrote:
 * V2 manifest names with deletion files, a tag and a branch; V1 names; and a shallow clone whose
 * first version reads its source's data through a base path.
 */
class InspectCommandIT {
  @TempDir static Path workDir;

  private static Path v2Table;
  private static Path v1Table;
  private static Path clone;

  @BeforeAll
  static void writeTables() {
    LanceTableFixture v2 = LanceTableFixture.create(workDir.resolve("v2-names"));
    v2.append(20);
    long forked = v2.append(20);
    v2.deleteWhere("id % 3 = 0");
    v2.createBranch("b1", forked).append(5);
    long big = v2.append(6000);
    // Deleting most of a large fragment writes a bitmap (.bin) deletion file instead of .arrow.
    v2.deleteWhere("id >= " + LanceTableFixture.firstId(big) + " AND id < " + (LanceTableFixture.firstId(big) + 5500));
    v2.tag("first", 1);
    v2Table = v2.root();

    LanceTableFixture v1 = LanceTableFixture.create(workDir.resolve("v1-names"), FixtureOptions.defaults().withV1ManifestNames());
    v1.append(10);
    v1.deleteWhere("id % 2 = 0");
    v1.append(10);
    v1Table = v1.root();

    LanceTableFixture cloned = v2.shallowClone(workDir.resolve("clone"), 2);
    cloned.append(7);
    clone = cloned.root();
  }

  @Test
  void versionsAndTimestampsAgreeWithTheSdk() {
    for (Path table : List.of(v2Table, v1Table, clone)) {
      JsonNode json = inspect(table);
      SdkView sdk = new SdkView(table, Optional.empty());

      TreeMap<Long, Long> ours = new TreeMap<>();
      json.get("versions").forEach(v -> ours.put(v.get("version").asLong(), v.get("timestamp_millis").asLong()));
      TreeMap<Long, Long> theirs = new TreeMap<>();
      sdk.versions().forEach((version, time) -> theirs.put(version, time.toEpochMilli()));
      assertThat(ours).as("versions of %s", table.getFileName()).isEqualTo(theirs);
      assertThat(json.get("latest_version").asLong()).as("latest of %s", table.getFileName()).isEqualTo(sdk.latestVersion());
    }
  }

  @Test
  void dataAndDeletionFilesOfEveryVersionAgreeWithTheSdk() {
    for (Path table : List.of(v2Table, v1Table, clone)) {
      SdkView sdk = new SdkView(table, Optional.empty());
      for (JsonNode version : inspect(table).get("versions")) {
        long v = version.get("version").asLong();
        List<String> ours = new ArrayList<>();
        version.get("files").forEach(file -> {
          String path = file.asText();
          if (path.startsWith("data/") || path.startsWith("_deletions/")) {
            ours.add(path);
          }
        });
        assertThat(ours.stream().sorted().toList())
            .as("data and deletion files of %s v%d", table.getFileName(), v)
            .isEqualTo(sdk.ownDataAndDeletionFiles(v));
      }
    }
  }

  @Test
  void deletionFilesOfBothKindsAreListed() {
    JsonNode latest = lastVersion(inspect(v2Table));

    assertThat(latest.get("files").toString()).contains(".arrow").contains(".bin");
  }

  @Test
  void cloneListsItsSourcesDataFilesAsExternal() {
    JsonNode first = inspect(clone).get("versions").get(0);
    long version = first.get("version").asLong();
    List<String> foreign = new SdkView(clone, Optional.empty()).foreignDataFiles(version);

    List<String> external = new ArrayList<>();
    first.get("external_files").forEach(file -> external.add(file.asText()));
    assertThat(foreign).as("the SDK reads the clone's first version through a base path").isNotEmpty();
    assertThat(external).hasSize(foreign.size());
    for (String file : foreign) {
      assertThat(external).anySatisfy(path -> assertThat(path).endsWith("v2-names/data/" + file));
    }
  }

  @Test
  void tagsAndBranchesAgreeWithTheSdk() {
    JsonNode json = inspect(v2Table);
    SdkView sdk = new SdkView(v2Table, Optional.empty());

    List<String> tags = new ArrayList<>();
    json.get("tags").forEach(tag -> tags.add(
        tag.get("name").asText() + " -> " + textOr(tag.get("branch"), "main") + "@" + tag.get("version").asLong()));
    List<String> branches = new ArrayList<>();
    json.get("branches").forEach(branch -> branches.add(
        branch.get("name").asText() + " <- " + textOr(branch.get("parent_branch"), "main") + "@"
            + branch.get("parent_version").asLong()));

    assertThat(tags).containsExactlyInAnyOrderElementsOf(withoutTrailingFields(sdk.tags(), 1));
    assertThat(branches).containsExactlyInAnyOrderElementsOf(withoutTrailingFields(sdk.branches(), 2));
    assertThat(tags).containsExactly("first -> main@1");
  }

  /** SdkView appends {@code /size} (tags) or {@code /createdAt/size} (branches); inspect shows neither. */
  private static List<String> withoutTrailingFields(List<String> lines, int fields) {
    return lines.stream().map(line -> {
      String result = line;
      for (int i = 0; i < fields; i++) {
        result = result.substring(0, result.lastIndexOf('/'));
      }
      return result;
    }).toList();
  }

  private static String textOr(JsonNode node, String fallback) {
    return node == null || node.isNull() ? fallback : node.asText();
  }

  private static JsonNode lastVersion(JsonNode json) {
    JsonNode versions = json.get("versions");
    return versions.get(versions.size() - 1);
  }

  private static final Map<Path, JsonNode> CACHE = new java.util.concurrent.ConcurrentHashMap<>();

  private static JsonNode inspect(Path table) {
    return CACHE.computeIfAbsent(table, t -> {
      CliRun run = CliRun.of("inspect", t.toString(), "--json");
      assertThat(run.exitCode()).as("%s", run).isZero();
      return run.json();
    });
  }
}
