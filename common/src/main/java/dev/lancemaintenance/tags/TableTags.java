package dev.lancemaintenance.tags;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Creates, moves and deletes a table's tags in the reference format the official SDK reads and
 * writes ({@code _refs/tags/<name>.json}: {@code branch}, {@code version}, {@code createdAt},
 * {@code updatedAt}, {@code manifestSize}, {@code metadata}), so that a user told by cleanup to move
 * or delete a tag can do it here, on any store.
 *
 * <p>Creating and moving a tag take the table's lease: a tag that appears on an old version while a
 * cleanup runs could name a version that cleanup is deleting. Deleting a tag only makes a running
 * cleanup keep more, so it does not wait for one.
 */
public final class TableTags {
  /** Where a user moves or deletes tags, for the errors that ask them to. */
  public static final String COMMANDS =
      "lance-maintenance tag move|delete, CALL lance.move_tag|delete_tag in Spark, CALL <catalog>.sys.move_tag|delete_tag"
          + " in Flink, or the SDK's tags()";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final TableStorage storage;
  private final Clock clock;

  private TableTags(TableStorage storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
  }

  public static TableTags of(TableStorage storage, Clock clock) {
    return new TableTags(storage, clock);
  }

  /** Every tag, ordered by name. */
  public List<Tag> list() {
    return RefReader.listTags(storage);
  }

  /** Tags {@code version} of main (empty branch) or of a branch; refuses a name already taken. */
  public Tag create(String name, long version, Optional<String> branch) {
    TagName.check(storage.location().toString(), name);
    try (TableLease lease = TableLease.acquire(storage, "tag")) {
      long manifestSize = manifestSize(name, version, branch);
      String now = clock.instant().toString();
      ObjectNode ref = ref(branch, version, now, now, manifestSize, JSON.createObjectNode());
      if (!storage.createIfAbsent(pathOf(name), bytes(ref))) {
        throw new TagException(storage.location(), name, "exists already (at v" + find(name).map(Tag::version).orElse(-1L)
            + "); move or delete it first (" + COMMANDS + ")");
      }
      return new Tag(name, branch, version, manifestSize);
    }
  }

  /** Points an existing tag at another version, keeping when it was created and its metadata. */
  public Tag move(String name, long version, Optional<String> branch) {
    TagName.check(storage.location().toString(), name);
    try (TableLease lease = TableLease.acquire(storage, "tag")) {
      JsonNode current = existing(name);
      long manifestSize = manifestSize(name, version, branch);
      JsonNode createdAt = current.get("createdAt");
      JsonNode metadata = current.get("metadata");
      ObjectNode ref = ref(branch, version,
          createdAt == null || createdAt.isNull() ? null : createdAt.asText(),
          clock.instant().toString(), manifestSize,
          metadata != null && metadata.isObject() ? metadata.deepCopy() : JSON.createObjectNode());
      storage.write(pathOf(name), bytes(ref));
      return new Tag(name, branch, version, manifestSize);
    }
  }

  /** Deletes a tag and returns what it was; refuses one that does not exist. */
  public Tag delete(String name) {
    TagName.check(storage.location().toString(), name);
    Tag deleted = find(name).orElseThrow(() -> notFound(name));
    List<TableStorage.DeleteFailure> failures = storage.deleteBatch(List.of(pathOf(name)));
    if (!failures.isEmpty()) {
      throw new TagException(storage.location(), name, "could not be deleted: " + failures.get(0).reason());
    }
    return deleted;
  }

  private Optional<Tag> find(String name) {
    return list().stream().filter(t -> t.name().equals(name)).findFirst();
  }

  private TagException notFound(String name) {
    return new TagException(storage.location(), name, "does not exist; tags: " + list().stream().map(Tag::name).toList());
  }

  private JsonNode existing(String name) {
    find(name).orElseThrow(() -> notFound(name));
    try {
      return JSON.readTree(storage.readFully(pathOf(name)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The size of the manifest of {@code version}, which Lance records in the tag; the version must exist. */
  private long manifestSize(String name, long version, Optional<String> branch) {
    DatasetRef dataset = DatasetRef.of(branch);
    Optional<ManifestLocation> manifest = VersionListing.list(storage, dataset).stream()
        .filter(m -> m.version() == version)
        .findFirst();
    return manifest.orElseThrow(() -> new TagException(storage.location(), name,
            "version " + version + " does not exist on " + dataset))
        .size();
  }

  private static ObjectNode ref(
      Optional<String> branch, long version, String createdAt, String updatedAt, long manifestSize, ObjectNode metadata) {
    ObjectNode ref = JSON.createObjectNode();
    if (branch.isPresent()) {
      ref.put("branch", branch.get());
    } else {
      ref.putNull("branch");
    }
    ref.put("version", version);
    if (createdAt != null) {
      ref.put("createdAt", createdAt);
    }
    ref.put("updatedAt", updatedAt);
    ref.put("manifestSize", manifestSize);
    ref.set("metadata", metadata);
    return ref;
  }

  private static byte[] bytes(ObjectNode ref) {
    return ref.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static String pathOf(String name) {
    return RefReader.TAGS_DIR + "/" + name + ".json";
  }
}
