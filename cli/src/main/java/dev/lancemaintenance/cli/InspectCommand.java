package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.Branch;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.FileReference;
import dev.lancemaintenance.format.Fragment;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.RefReader;
import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorages;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code inspect <table-uri> [--json]}: the view a DBA wants of a table: every version with its
 * timestamp, fragments, rows, the files it references and their bytes; tags; branches; and how much
 * of what is on disk the latest version still needs.
 *
 * <p>A diagnostic for one machine: it decodes every manifest and holds the table's file listing, so
 * use it on tables that fit in memory; cleanup itself never does this.
 */
final class InspectCommand {
  static final String USAGE = "inspect <table-uri> [--json] [--conf HADOOP_KEY=VALUE]...";

  int run(List<String> args, PrintStream out, PrintStream err) {
    try {
      return runChecked(args, out);
    } catch (RuntimeException e) {
      if (args.contains("--json")) {
        // Every failure in --json mode is one JSON object with an error.
        String table = args.stream().filter(arg -> !arg.startsWith("--")).findFirst().map(TableLocation::redact).orElse("");
        try (CleanupCommand.JsonOutput output = new CleanupCommand.JsonOutput(out, table)) {
          output.error(UserErrors.message(e));
        }
      }
      throw e;
    }
  }

  private int runChecked(List<String> args, PrintStream out) {
    CliArguments parsed = CliArguments.parse(args, Set.of("json"), Set.of("conf"));
    String tableUri = parsed.onlyPositional("inspect takes exactly one table URI");
    TableLocation location;
    try {
      location = TableLocation.of(tableUri);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    try (TableStorage storage = TableStorages.open(location, StorageConf.of(parsed.hadoopConf()))) {
      TableView view = TableView.read(storage);
      if (view.versions().isEmpty()) {
        // A missing path, a plain file or a directory without manifests: not a table to report on.
        throw new MaintenanceException(
            "Cannot inspect " + location + ": no manifests in _versions/ (not a Lance table, or the path does not exist)");
      }
      if (parsed.flag("json")) {
        printJson(view, out);
      } else {
        printText(view, out);
      }
    }
    return 0;
  }

  /** Everything inspect shows, read once. */
  private record TableView(
      String table,
      List<VersionView> versions,
      List<Tag> tags,
      List<Branch> branches,
      long bytesOnDisk,
      long filesOnDisk) {

    static TableView read(TableStorage storage) {
      Map<String, Long> sizes = new HashMap<>();
      Map<String, List<String>> filesByKey = new HashMap<>();
      for (String dir : ManagedLayout.DIRECTORIES) {
        for (Iterator<FileEntry> files = storage.listFiles(dir, true); files.hasNext(); ) {
          FileEntry file = files.next();
          sizes.put(file.path(), file.size());
          filesByKey.computeIfAbsent(ReferenceKeys.keyOf(DatasetRef.MAIN, file.path()), k -> new ArrayList<>()).add(file.path());
        }
      }
      List<VersionView> versions = new ArrayList<>();
      List<ManifestLocation> locations = new ArrayList<>(VersionListing.list(storage, DatasetRef.MAIN));
      locations.sort(Comparator.comparingLong(ManifestLocation::version));
      for (ManifestLocation location : locations) {
        Manifest manifest = ManifestReader.read(storage, location);
        versions.add(VersionView.of(storage.location(), location, manifest, sizes, filesByKey));
      }
      long bytes = sizes.values().stream().mapToLong(Long::longValue).sum();
      return new TableView(
          storage.location().toString(),
          versions,
          RefReader.listTags(storage),
          RefReader.listBranches(storage),
          bytes,
          sizes.size());
    }

    long latestVersion() {
      return versions.isEmpty() ? -1 : versions.get(versions.size() - 1).version();
    }
  }

  /** One version: its counts, and the files it references that lie inside the table. */
  private record VersionView(
      long version, long timestampMillis, int fragments, long rows, List<String> files, List<String> externalFiles, long bytes) {

    static VersionView of(
        TableLocation root,
        ManifestLocation location,
        Manifest manifest,
        Map<String, Long> sizes,
        Map<String, List<String>> filesByKey) {
      Set<String> files = new LinkedHashSet<>();
      files.add(location.path());
      List<String> external = new ArrayList<>();
      for (FileReference reference : manifest.references(root, DatasetRef.MAIN)) {
        if (reference.external()) {
          external.add(reference.path());
        } else if (reference.kind() == FileKind.INDEX) {
          // An index is referenced by its directory: show the files in it.
          files.addAll(filesByKey.getOrDefault(reference.path(), List.of()));
        } else {
          files.add(reference.path());
          files.addAll(sidecarsOf(reference.path(), filesByKey));
        }
      }
      long bytes = files.stream().mapToLong(path -> sizes.getOrDefault(path, 0L)).sum();
      long rows = 0;
      for (Fragment fragment : manifest.fragments()) {
        rows += fragment.physicalRows() - fragment.deletionFile().map(d -> d.numDeletedRows()).orElse(0L);
      }
      return new VersionView(
          manifest.version(),
          manifest.timestampNanos() / 1_000_000L,
          manifest.fragments().size(),
          rows,
          List.copyOf(files),
          external,
          bytes);
    }

    private static List<String> sidecarsOf(String path, Map<String, List<String>> filesByKey) {
      List<String> sidecars = new ArrayList<>();
      for (String file : filesByKey.getOrDefault(path, List.of())) {
        if (!file.equals(path)) {
          sidecars.add(file);
        }
      }
      return sidecars;
    }
  }

  private static void printText(TableView view, PrintStream out) {
    out.printf("Table %s: %d versions, latest %d%n", view.table(), view.versions().size(), view.latestVersion());
    out.printf("%8s  %-24s %9s %10s %6s %14s%n", "version", "timestamp", "fragments", "rows", "files", "bytes");
    for (VersionView version : view.versions()) {
      out.printf(
          "%8d  %-24s %9d %10d %6d %14d%n",
          version.version(),
          Instant.ofEpochMilli(version.timestampMillis()),
          version.fragments(),
          version.rows(),
          version.files().size(),
          version.bytes());
    }
    out.printf("Tags: %s%n", view.tags().isEmpty() ? "none" : "");
    for (Tag tag : view.tags()) {
      out.printf("  %s -> %sv%d%n", tag.name(), tag.branch().map(b -> b + "@").orElse(""), tag.version());
    }
    out.printf("Branches: %s%n", view.branches().isEmpty() ? "none" : "");
    for (Branch branch : view.branches()) {
      out.printf("  %s (from %s@v%d)%n", branch.name(), branch.parentBranch().orElse("main"), branch.parentVersion());
    }
    long latestBytes = view.versions().isEmpty() ? 0 : view.versions().get(view.versions().size() - 1).bytes();
    out.printf(
        "Storage: %,d bytes in %,d files under the table's managed directories; the latest version needs %,d bytes%n",
        view.bytesOnDisk(), view.filesOnDisk(), latestBytes);
  }

  private static void printJson(TableView view, PrintStream out) {
    JsonGenerator json = Json.generator(out);
    try {
      json.writeStartObject();
      json.writeStringField("table", view.table());
      json.writeNumberField("latest_version", view.latestVersion());
      json.writeArrayFieldStart("versions");
      for (VersionView version : view.versions()) {
        json.writeStartObject();
        json.writeNumberField("version", version.version());
        json.writeNumberField("timestamp_millis", version.timestampMillis());
        json.writeNumberField("fragments", version.fragments());
        json.writeNumberField("rows", version.rows());
        json.writeNumberField("bytes", version.bytes());
        writeStrings(json, "files", version.files());
        writeStrings(json, "external_files", version.externalFiles());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeArrayFieldStart("tags");
      for (Tag tag : view.tags()) {
        json.writeStartObject();
        json.writeStringField("name", tag.name());
        json.writeStringField("branch", tag.branch().orElse(null));
        json.writeNumberField("version", tag.version());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeArrayFieldStart("branches");
      for (Branch branch : view.branches()) {
        json.writeStartObject();
        json.writeStringField("name", branch.name());
        json.writeStringField("parent_branch", branch.parentBranch().orElse(null));
        json.writeNumberField("parent_version", branch.parentVersion());
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeNumberField("bytes_on_disk", view.bytesOnDisk());
      json.writeNumberField("files_on_disk", view.filesOnDisk());
      json.writeEndObject();
      json.flush();
      out.println();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeStrings(JsonGenerator json, String field, List<String> values) throws IOException {
    json.writeArrayFieldStart(field);
    for (String value : values) {
      json.writeString(value);
    }
    json.writeEndArray();
  }
}
