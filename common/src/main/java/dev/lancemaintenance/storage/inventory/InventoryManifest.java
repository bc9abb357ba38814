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
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.Type;

/**
 * The {@code manifest.json} of one S3 Inventory report, as AWS writes it: the source bucket, when
 * the report was taken, the file format, the column list ({@code fileSchema}) and the data files
 * (keys in the destination bucket).
 *
 * <p>CSV and Parquet reports are read ({@link InventoryRows}). An ORC report is refused with a way
 * round: configure the inventory as Parquet, or read the report in Spark and pass it as a view
 * ({@code file_list_view}).
 *
 * @param creationTime when AWS took the report; files newer than this are not in it
 * @param format the data files' format
 * @param columns the data files' columns, in order ({@code Bucket}, {@code Key}, {@code Size}, ...
 *     in CSV; {@code bucket}, {@code key}, {@code size}, ... in Parquet, whose files also carry them)
 * @param dataFiles keys of the data files in the destination bucket
 */
public record InventoryManifest(
    String sourceBucket, Instant creationTime, Format format, List<String> columns, List<String> dataFiles)
    implements Serializable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The formats AWS writes a report in that are read here. */
  public enum Format {
    CSV,
    PARQUET
  }

  public InventoryManifest {
    columns = List.copyOf(columns);
    dataFiles = List.copyOf(dataFiles);
  }

  /** This manifest without its data files: what each listing task needs of it. */
  public InventoryManifest header() {
    return new InventoryManifest(sourceBucket, creationTime, format, columns, List.of());
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
    Format format = format(location, text(location, root, "fileFormat"));
    List<String> columns = columns(location, format, text(location, root, "fileSchema"));
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
    return new InventoryManifest(text(location, root, "sourceBucket"), creationTime, format, columns, dataFiles);
  }

  private static Format format(String location, String fileFormat) {
    return switch (fileFormat.toUpperCase(Locale.ROOT)) {
      case "CSV" -> Format.CSV;
      case "PARQUET" -> Format.PARQUET;
      default -> throw new InventoryException("S3 Inventory manifest " + location + " describes a " + fileFormat
          + " report; CSV and Parquet reports are read. Configure the inventory as Parquet, or read the report in"
          + " Spark and pass it as a view: file_list_view => '<view with path, size, last_modified>'");
    };
  }

  /**
   * The column names of {@code fileSchema}: a comma-separated list for CSV, a Parquet message type
   * ({@code message s3.inventory { required binary bucket (STRING); ... }}) for Parquet.
   */
  private static List<String> columns(String location, Format format, String fileSchema) {
    if (format == Format.CSV) {
      return Arrays.stream(fileSchema.split(",")).map(String::trim).toList();
    }
    try {
      return MessageTypeParser.parseMessageType(fileSchema).getFields().stream().map(Type::getName).toList();
    } catch (IllegalArgumentException e) {
      throw new InventoryException("S3 Inventory manifest " + location + ": fileSchema is not a Parquet schema: "
          + e.getMessage(), e);
    }
  }

  private static String text(String location, JsonNode node, String key) {
    JsonNode value = node.get(key);
    if (value == null || !value.isValueNode() || value.asText().isEmpty()) {
      throw new InventoryException("S3 Inventory manifest " + location + " has no \"" + key + "\"");
    }
    return value.asText();
  }
}
