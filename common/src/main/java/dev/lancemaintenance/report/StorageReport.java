package dev.lancemaintenance.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.lancemaintenance.format.DatasetRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The storage report of one dataset: its versions, what its files are for, what the given policy
 * frees now, and what each window of the what-if would free. The same value whichever engine
 * computed it; {@link #rows()} is its one tabular form (SQL rows, the command line's table), {@link
 * #toJson()} its JSON.
 *
 * @param table the table, redacted
 * @param dataset the dataset reported on; {@link #datasetName} is how the report writes it
 * @param nowMillis the report's clock
 * @param policy the given policy, under its option names
 * @param versions the dataset's versions
 * @param files files and bytes per kind and category under the given policy
 * @param now what the cleanup with the given policy would remove
 * @param windows what a cleanup with each window (the given policy with that {@code older_than})
 *     would remove, in the order asked
 * @param unverifiedByAge listed files no version references, by age
 * @param pins the tags and branches, with what each one holds
 * @param timeline per version: its time, and what goes when the window passes it
 */
public record StorageReport(
    String table,
    DatasetRef dataset,
    long nowMillis,
    String policy,
    Versions versions,
    SortedMap<KindCategory, FilesBytes> files,
    WindowResult now,
    List<WindowResult> windows,
    Map<AgeBucket, FilesBytes> unverifiedByAge,
    List<Pin> pins,
    List<VersionPoint> timeline) {

  public StorageReport {
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(dataset, "dataset");
    Objects.requireNonNull(versions, "versions");
    windows = List.copyOf(windows);
    pins = List.copyOf(pins);
    timeline = List.copyOf(timeline);
  }

  /**
   * The dataset's versions.
   *
   * @param count versions listed
   * @param latest the latest version
   * @param oldestMillis the oldest manifest timestamp
   * @param newestMillis the newest manifest timestamp
   * @param byAge versions per age of their manifest timestamp
   */
  public record Versions(long count, long latest, long oldestMillis, long newestMillis, Map<AgeBucket, Long> byAge) {}

  /**
   * What one cleanup would remove.
   *
   * @param label {@code policy} for the given policy, else the window ({@code 7d})
   * @param versionsRemoved versions it removes
   * @param freed files and bytes it removes, manifests included (its {@code bytes_removed})
   * @param refusal why it would refuse and remove nothing, empty when it runs
   */
  public record WindowResult(String label, long versionsRemoved, FilesBytes freed, Optional<String> refusal) {}

  /**
   * A tag or a branch and what it holds in this dataset.
   *
   * @param type {@code tag} or {@code branch}
   * @param name its name
   * @param version the tagged version, or the version the branch was forked from
   * @param referenced the files of this dataset its versions reference
   */
  public record Pin(String type, String name, long version, FilesBytes referenced) {}

  /**
   * One version on the timeline.
   *
   * @param version the version
   * @param timestampMillis its manifest's timestamp
   * @param freedWith files that go once a cleanup's window passes this version (nothing newer or
   *     pinned references them), its manifest included
   */
  public record VersionPoint(long version, long timestampMillis, FilesBytes freedWith) {}

  /**
   * One row of the tabular form, the same for SQL and the command line.
   *
   * @param section {@code versions}, {@code versions_by_age}, {@code files}, {@code reclaimable_now},
   *     {@code what_if}, {@code unverified_by_age}, {@code tag}, {@code branch}
   * @param name what the row is about within its section (a kind/category, a window, a tag)
   * @param versions versions the row counts (removed, tagged, listed), 0 where none
   * @param files files the row counts
   * @param bytes their bytes
   * @param detail the rest, as text (timestamps, a refusal), empty when none
   */
  public record Row(String section, String name, long versions, long files, long bytes, String detail) {}

  /** The report as rows, in a fixed order of sections. */
  public List<Row> rows() {
    List<Row> rows = new ArrayList<>();
    rows.add(new Row("versions", "all", versions.count(), 0, 0,
        "latest=" + versions.latest() + ", oldest=" + instant(versions.oldestMillis())
            + ", newest=" + instant(versions.newestMillis())));
    versions.byAge().forEach((age, count) -> rows.add(new Row("versions_by_age", age.sqlName(), count, 0, 0, "")));
    files.forEach((bucket, counted) -> rows.add(new Row("files",
        bucket.kind().name().toLowerCase(java.util.Locale.ROOT) + "/" + bucket.category().sqlName(),
        0, counted.files(), counted.bytes(), "")));
    rows.add(windowRow("reclaimable_now", now, policy));
    windows.forEach(window -> rows.add(windowRow("what_if", window, "")));
    unverifiedByAge.forEach((age, counted) ->
        rows.add(new Row("unverified_by_age", age.sqlName(), 0, counted.files(), counted.bytes(), "")));
    pins.forEach(pin -> rows.add(new Row(pin.type(), pin.name(), pin.version(),
        pin.referenced().files(), pin.referenced().bytes(), pin.type().equals("tag") ? "tagged version" : "forked from version")));
    return rows;
  }

  /** The names of {@link #totals()}, in its order: the columns of {@code describe_storage_all}. */
  public static List<String> totalNames() {
    return List.of("versions", "latest_version", "files", "bytes", "latest_bytes", "retained_bytes", "unverified_bytes",
        "reclaimable_versions", "reclaimable_files", "reclaimable_bytes");
  }

  /**
   * The report in one line of counters ({@link #totalNames()}): versions, every listed file, the
   * bytes the latest version needs, that only older versions, tags or branches hold, that no version
   * references, and what the given policy frees now (zero when it would refuse).
   */
  public Map<String, Long> totals() {
    Map<StorageCategory, FilesBytes> byCategory = new java.util.EnumMap<>(StorageCategory.class);
    files.forEach((bucket, counted) -> byCategory.merge(bucket.category(), counted, FilesBytes::plus));
    FilesBytes all = byCategory.values().stream().reduce(FilesBytes.ZERO, FilesBytes::plus);
    boolean refused = now.refusal().isPresent();
    List<Long> values = List.of(versions.count(), versions.latest(), all.files(), all.bytes(),
        byCategory.getOrDefault(StorageCategory.LATEST, FilesBytes.ZERO).bytes(),
        byCategory.getOrDefault(StorageCategory.RETAINED, FilesBytes.ZERO).bytes(),
        byCategory.getOrDefault(StorageCategory.UNVERIFIED, FilesBytes.ZERO).bytes(),
        refused ? 0 : now.versionsRemoved(), refused ? 0 : now.freed().files(), refused ? 0 : now.freed().bytes());
    Map<String, Long> totals = new LinkedHashMap<>();
    for (int i = 0; i < values.size(); i++) {
      totals.put(totalNames().get(i), values.get(i));
    }
    return totals;
  }

  private static Row windowRow(String section, WindowResult window, String detail) {
    String text = window.refusal().map(reason -> "refused: " + reason).orElse(detail);
    return new Row(section, window.label(), window.versionsRemoved(), window.freed().files(), window.freed().bytes(), text);
  }

  /** The dataset as the report writes it: {@code main}, or the branch's directory {@code tree/<branch>}. */
  public String datasetName() {
    return dataset.isMain() ? "main" : dataset.dir();
  }

  /** The report as one JSON object (the command line's {@code --json}, the HTML page's data). */
  public String toJson() {
    try {
      return new ObjectMapper().disable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(jsonTree());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot write the storage report of " + table + " as JSON", e);
    }
  }

  private Map<String, Object> jsonTree() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", table);
    json.put("dataset", datasetName());
    json.put("now", instant(nowMillis));
    json.put("policy", policy);
    Map<String, Object> versionsJson = new LinkedHashMap<>();
    versionsJson.put("count", versions.count());
    versionsJson.put("latest", versions.latest());
    versionsJson.put("oldest", instant(versions.oldestMillis()));
    versionsJson.put("newest", instant(versions.newestMillis()));
    Map<String, Object> byAge = new LinkedHashMap<>();
    versions.byAge().forEach((age, count) -> byAge.put(age.sqlName(), count));
    versionsJson.put("by_age", byAge);
    json.put("versions", versionsJson);
    List<Object> filesJson = new ArrayList<>();
    files.forEach((bucket, counted) -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("kind", bucket.kind().name().toLowerCase(java.util.Locale.ROOT));
      row.put("category", bucket.category().sqlName());
      row.put("files", counted.files());
      row.put("bytes", counted.bytes());
      filesJson.add(row);
    });
    json.put("files", filesJson);
    json.put("reclaimable_now", windowJson(now));
    json.put("what_if", windows.stream().map(StorageReport::windowJson).toList());
    Map<String, Object> unverified = new LinkedHashMap<>();
    unverifiedByAge.forEach((age, counted) -> unverified.put(age.sqlName(), filesBytesJson(counted)));
    json.put("unverified_by_age", unverified);
    json.put("pins", pins.stream().map(pin -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("type", pin.type());
      row.put("name", pin.name());
      row.put("version", pin.version());
      row.putAll(filesBytesJson(pin.referenced()));
      return row;
    }).toList());
    json.put("timeline", timeline.stream().map(point -> {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("version", point.version());
      row.put("timestamp", instant(point.timestampMillis()));
      row.put("timestamp_millis", point.timestampMillis());
      row.putAll(filesBytesJson(point.freedWith()));
      return row;
    }).toList());
    return json;
  }

  private static Map<String, Object> windowJson(WindowResult window) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("window", window.label());
    row.put("versions_removed", window.versionsRemoved());
    row.putAll(filesBytesJson(window.freed()));
    row.put("refusal", window.refusal().orElse(null));
    return row;
  }

  private static Map<String, Object> filesBytesJson(FilesBytes counted) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("files", counted.files());
    row.put("bytes", counted.bytes());
    return row;
  }

  private static String instant(long millis) {
    return Instant.ofEpochMilli(millis).toString();
  }
}
