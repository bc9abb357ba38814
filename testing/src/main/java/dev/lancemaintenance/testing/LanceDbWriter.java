package dev.lancemaintenance.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * LanceDB (npm {@code @lancedb/lancedb} 0.39.0, Rust Lance 12) as a second real writer of test
 * tables, and its own cleanup and reader as a second oracle (docs/cleanup-semantics.md, section 11).
 *
 * <p>The Node side is {@code lancedb-writer/writer.mjs} with a {@code package.json} and {@code
 * package-lock.json} that pin the versions, resources of module testing (so every engine's tests get them
 * from there). The first use in a JVM copies them to {@code target/lancedb-writer}
 * and runs {@code npm install} there from the npm registry (not {@code npm ci}: the registry serves
 * the native package for linux-x64 only, so the lock file lacks other platforms' entries). Node is
 * the machine's {@code node} (20 works although the package asks for 22).
 *
 * <p>A recipe runs in one Node process in the directory the caller chose, with the database opened
 * through the relative path {@code ./db}: LanceDB then records branch base paths relative ({@code
 * ./db/<table>.lance}), the spelling of issue 12, item 1. Such a table reads back correctly only
 * from that working directory, which is why reads of it go through Node too.
 */
public final class LanceDbWriter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> FILES = List.of("package.json", "package-lock.json", "writer.mjs");
  private static final String DB = "./db";
  private static Path installed;

  private final Path workDir;
  private final String table;

  private LanceDbWriter(Path workDir, String table) {
    this.workDir = workDir;
    this.table = table;
  }

  /** The table {@code table} of the database {@code ./db} below {@code workDir}. */
  public static LanceDbWriter at(Path workDir, String table) {
    return new LanceDbWriter(workDir.toAbsolutePath().normalize(), table);
  }

  /** The table's directory: {@code workDir/db/<table>.lance}. */
  public Path root() {
    return workDir.resolve("db").resolve(table + ".lance");
  }

  /** A recipe of steps to run in one Node process. */
  public Recipe recipe() {
    return new Recipe();
  }

  /**
   * LanceDB's own cleanup: {@code optimize({cleanupOlderThan, deleteUnverified})}. It compacts
   * first, so it is a pure cleanup only on a table with nothing to compact; the outcome says
   * whether it committed anything.
   */
  public CleanupOutcome cleanup(Instant olderThan, boolean deleteUnverified) {
    ObjectNode step = JSON.createObjectNode().put("op", "cleanup").put("olderThan", olderThan.toString())
        .put("deleteUnverified", deleteUnverified);
    JsonNode answer = run(List.of(step), false);
    if (answer.has("error")) {
      return new CleanupOutcome(Optional.of(answer.get("error").asText()), false);
    }
    return new CleanupOutcome(Optional.empty(), answer.get("results").get(0).get("compacted").asBoolean());
  }

  /**
   * What LanceDB's cleanup did.
   *
   * @param refused its error text when it refused (tagged old versions, say)
   * @param compacted whether it committed a compaction first (then it was not a pure cleanup)
   */
  public record CleanupOutcome(Optional<String> refused, boolean compacted) {}

  /** Every version of main, every tag and every branch version, read in full by LanceDB. */
  public TableSnapshot readBack() {
    return snapshotOf(runOrThrow(List.of(JSON.createObjectNode().put("op", "readBack"))).get(0).get("entries"));
  }

  /** The named versions, read in full by LanceDB ({@link KeptManifests} keys). */
  public TableSnapshot read(List<KeptManifests.VersionRef> refs) {
    ArrayNode list = JSON.createArrayNode();
    for (KeptManifests.VersionRef ref : refs) {
      ObjectNode node = list.addObject().put("version", ref.version());
      ref.branch().ifPresentOrElse(b -> node.put("branch", b), () -> node.putNull("branch"));
    }
    ObjectNode step = JSON.createObjectNode().put("op", "read");
    step.set("refs", list);
    return snapshotOf(runOrThrow(List.of(step)).get(0).get("entries"));
  }

  private static TableSnapshot snapshotOf(JsonNode entries) {
    SortedMap<String, TableContent> contents = new TreeMap<>();
    entries.fields().forEachRemaining(entry -> {
      JsonNode value = entry.getValue();
      contents.put(entry.getKey(), value.has("error")
          ? new TableContent.Unreadable(value.get("error").asText())
          : new TableContent.Readable(value.get("rows").asLong(), Long.parseUnsignedLong(value.get("checksum").asText())));
    });
    return new TableSnapshot(contents);
  }

  /** Steps collected and run together; each commit's version comes back in {@link #write}'s result. */
  public final class Recipe {
    private final List<ObjectNode> steps = new ArrayList<>();

    public Recipe append(int rows) {
      return add(step("append").put("rows", rows));
    }

    public Recipe appendOn(String branch, int rows) {
      return add(step("append").put("rows", rows).put("branch", branch));
    }

    public Recipe delete(String predicate) {
      return add(step("delete").put("where", predicate));
    }

    public Recipe deleteOn(String branch, String predicate) {
      return add(step("delete").put("where", predicate).put("branch", branch));
    }

    public Recipe update(String predicate) {
      return add(step("update").put("where", predicate));
    }

    /** A scalar index: {@code kind} is a LanceDB {@code Index} factory ({@code btree}, {@code bitmap}). */
    public Recipe index(String column, String kind) {
      return add(step("index").put("column", column).put("kind", kind));
    }

    public Recipe tag(String name, long version) {
      return add(step("tag").put("name", name).put("version", version));
    }

    public Recipe branch(String name, long fromVersion) {
      return add(step("branch").put("name", name).put("version", fromVersion));
    }

    public Recipe branchFrom(String name, String parent, long fromVersion) {
      return add(step("branch").put("name", name).put("fromRef", parent).put("version", fromVersion));
    }

    /** Replaces the table's rows with {@code rows} new ones (a new version, as LanceDB's overwrite mode writes). */
    public Recipe overwrite(int rows) {
      return add(step("overwrite").put("rows", rows));
    }

    /** A shallow clone of {@code version} as table {@code target} of the same database. */
    public Recipe shallowClone(String target, long version) {
      return add(step("clone").put("target", target).put("version", version));
    }

    /** LanceDB's {@code optimize()}: compaction, index optimisation, no pruning of fresh versions. */
    public Recipe compact() {
      return add(step("compact"));
    }

    /** Waits, so that an instant taken after the previous commit lies before the next one. */
    public Recipe pause(long millis) {
      return add(step("pause").put("millis", millis));
    }

    /** Runs the steps; each step's result carries the latest {@code version} and {@code timestampMillis}. */
    public List<JsonNode> write() {
      return runOrThrow(new ArrayList<>(steps));
    }

    /** How many steps the recipe holds so far. */
    int size() {
      return steps.size();
    }

    private Recipe add(ObjectNode step) {
      steps.add(step);
      return this;
    }

    private ObjectNode step(String op) {
      return JSON.createObjectNode().put("op", op);
    }
  }

  private List<JsonNode> runOrThrow(List<ObjectNode> steps) {
    JsonNode answer = run(steps, true);
    List<JsonNode> results = new ArrayList<>();
    answer.get("results").forEach(results::add);
    return results;
  }

  private JsonNode run(List<ObjectNode> steps, boolean failOnError) {
    ObjectNode recipe = JSON.createObjectNode().put("db", DB).put("table", table);
    recipe.putArray("steps").addAll(steps);
    try {
      Files.createDirectories(workDir);
      Path installation = installation();
      Path stderr = Files.createTempFile(workDir, "lancedb-", ".err");
      Process node = new ProcessBuilder(List.of("node", installation.resolve("writer.mjs").toString()))
          .directory(workDir.toFile())
          .redirectError(stderr.toFile())
          .start();
      node.getOutputStream().write(JSON.writeValueAsBytes(recipe));
      node.getOutputStream().close();
      byte[] out = node.getInputStream().readAllBytes();
      int exit = waitFor(node);
      String errors = Files.readString(stderr);
      Files.delete(stderr);
      JsonNode answer = out.length == 0 ? JSON.createObjectNode().put("error", errors) : JSON.readTree(out);
      if (failOnError && (exit != 0 || answer.has("error"))) {
        throw new IllegalStateException("LanceDB writer failed in " + workDir + " (exit " + exit + "): "
            + answer.path("error").asText() + "\n" + errors);
      }
      return answer;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run the LanceDB writer in " + workDir, e);
    }
  }

  private static int waitFor(Process process) {
    return NodeProject.waitFor(process, "LanceDB writer");
  }

  /** Copies the Node project out of the class path and installs its pinned packages, once per JVM. */
  static synchronized Path installation() throws IOException {
    if (installed == null) {
      installed = NodeProject.install(
          "lancedb-writer", FILES, "node_modules/@lancedb/lancedb/package.json", "lancedb.writer.dir");
    }
    return installed;
  }
}
