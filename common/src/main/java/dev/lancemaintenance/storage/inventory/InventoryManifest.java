package dev.lancemaintenance.storage.inventory;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The {@code manifest.json} of one S3 Inventory report, as AWS writes it: the source bucket, when
 * the report was taken, the file format, the column list ({@code fileSchema}) and the data files
 * (keys in the destination bucket).
 *
 * <p>Only CSV reports are read here: their columns are text and need no columnar reader. A Parquet
 * or ORC report is refused with a way round (Spark reads it as a view: {@code file_list_view}).
 *
 * @param creationTime when AWS took the report; files newer than this are not in it
 * @param columns the data files' columns, in order ({@code Bucket}, {@code Key}, {@code Size}, ...)
 * @param dataFiles keys of the gzipped CSV files in the destination bucket
 */
public record InventoryManifest(
    String sourceBucket, Instant creationTime, List<String> columns, List<String> dataFiles) implements Serializable {
  private static final ObjectMapper JSON = new ObjectMapper();

  public InventoryManifest {
    columns = List.copyOf(columns);
    dataFiles = List.copyOf(dataFiles);
  }

  /** This manifest without its data files: what each listing task needs of it. */
  public InventoryManifest header() {
    return new InventoryManifest(sourceBucket, creationTime, columns, List.of());
  }

  /** Parses {@code manifest.json}; {@code location} names it in errors. */
  public static InventoryManifest parse(String location, byte[] json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (IOException e) {
      throw new InventoryException("S3 Inventory manifest " + location + " is not valid JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new InventoryException("S3 Inventory manifest " + location + " is not a JSON object");
    }
    String format = text(location, root, "fileFormat");
    if (!format.toUpperCase(Locale.ROOT).equals("CSV")) {
      throw new InventoryException("S3 Inventory manifest " + location + " describes a " + format + " report; only CSV"
          + " reports are read directly. Read a " + format + " report in Spark and pass it as a view:"
          + " file_list_view => '<view with path, size, modification_time>'");
    }
    List<String> columns = Arrays.stream(text(location, root, "fileSchema").split(","))
        .map(String::trim)
        .toList();
    List<String> dataFiles = new ArrayList<>();
    JsonNode files = root.get("files");
    if (files == null || !files.isArray()) {
      throw new InventoryException("S3 Inventory manifest " + location + " has no \"files\" list");
    }
    for (JsonNode file : files) {
      dataFiles.add(text(location, file, "key"));
    }
    String created = text(location, root, "creationTimestamp");
    Instant creationTime;
    try {
      creationTime = Instant.ofEpochMilli(Long.parseLong(created));
    } catch (NumberFormatException e) {
      throw new InventoryException("S3 Inventory manifest " + location + ": creationTimestamp is not epoch milliseconds: " + created);
    }
    return new InventoryManifest(text(location, root, "sourceBucket"), creationTime, columns, dataFiles);
  }

  private static String text(String location, JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isValueNode() || value.asText().isEmpty()) {
      throw new InventoryException("S3 Inventory manifest " + location + " has no \"" + key + "\"");
    }
    return value.asText();
  }
}
