package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupEngine;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.OlderThan;
import dev.lancemaintenance.storage.TableLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code cleanup <table-uri> [options]}: runs a cleanup on the chosen engine and prints its
 * counters; a dry run also prints every file that would go, as it is decided.
 */
final class CleanupCommand {
  static final String USAGE =
      "cleanup <table-uri> [--branch NAME] [--older-than DURATION|ISO-INSTANT] [--before-timestamp-millis MS]\n"
          + "        [--before-version N] [--delete-unverified] [--no-error-if-tagged-old-versions]\n"
          + "        [--clean-referenced-branches] [--dry-run] [--json] [--engine local|spark|flink]\n"
          + "        [--max-concurrent-deletes N] [--delete-rate-limit FILES_PER_SECOND]\n"
          + "        [--conf HADOOP_KEY=VALUE]... [--engine-option KEY=VALUE]... [--master URL] [--parallelism N]";

  private static final Set<String> FLAGS =
      Set.of("delete-unverified", "no-error-if-tagged-old-versions", "clean-referenced-branches", "dry-run", "json");
  private static final Set<String> VALUED =
      Set.of(
          "branch", "older-than", "before-timestamp-millis", "before-version", "engine", "max-concurrent-deletes",
          "delete-rate-limit", "conf", "engine-option", "master", "parallelism");

  private final Clock clock;

  CleanupCommand(Clock clock) {
    this.clock = clock;
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = CliArguments.parse(args, FLAGS, VALUED);
    if (parsed.positionals().size() != 1) {
      throw new UsageException("cleanup takes exactly one table URI");
    }
    String tableUri = parsed.positionals().get(0);
    String table = TableLocation.redact(tableUri);
    boolean json = parsed.flag("json");
    CleanupAction action = configure(parsed, tableUri);
    try (Output output = json ? new JsonOutput(out, table) : new TextOutput(out, table)) {
      if (parsed.flag("dry-run")) {
        // A real run names its files on the audit logger only; a dry run is about the files.
        action.onRemovedFile(output::file);
      }
      try {
        CleanupResult result = action.execute();
        output.result(result);
        return exitCodeOf(result.counters().failedDeletes(), table, err);
      } catch (MaintenanceException | IllegalStateException e) {
        output.error(e.getMessage());
        err.println("lance-maintenance: " + e.getMessage());
        return 1;
      }
    }
  }

  /**
   * 0, or {@link MaintenanceCli#EXIT_FAILED_DELETES} when a delete failed: the run kept the expired
   * manifests, so a script must learn that the table is not clean yet.
   */
  static int exitCodeOf(long failedDeletes, String table, PrintStream err) {
    if (failedDeletes == 0) {
      return 0;
    }
    err.println("lance-maintenance: " + failedDeletes + " deletes failed in " + table
        + " (logged with their paths); the expired manifests were kept, so the next run retries them");
    return MaintenanceCli.EXIT_FAILED_DELETES;
  }

  private CleanupAction configure(CliArguments parsed, String tableUri) {
    Map<String, String> engineOptions = parsed.keyValues("engine-option");
    if (parsed.value("master") != null) {
      engineOptions.put("master", parsed.value("master"));
    }
    if (parsed.value("parallelism") != null) {
      engineOptions.put("parallelism", parsed.value("parallelism"));
    }
    CleanupAction action = engine(parsed.value("engine")).cleanup(tableUri, parsed.hadoopConf(), engineOptions);
    try {
      if (parsed.value("older-than") != null && parsed.value("before-timestamp-millis") != null) {
        throw new UsageException("Give either --older-than or --before-timestamp-millis, not both");
      }
      if (parsed.value("older-than") != null) {
        action.beforeTimestamp(OlderThan.beforeTimestamp(parsed.value("older-than"), clock.instant()));
      }
      if (parsed.value("before-timestamp-millis") != null) {
        action.beforeTimestamp(Instant.ofEpochMilli(parsed.longValue("before-timestamp-millis", 0)));
      }
      if (parsed.value("branch") != null) {
        action.branch(parsed.value("branch"));
      }
      if (parsed.value("before-version") != null) {
        action.beforeVersion(parsed.longValue("before-version", 0));
      }
      if (parsed.value("max-concurrent-deletes") != null) {
        action.maxConcurrentDeletes((int) parsed.longValue("max-concurrent-deletes", 0));
      }
      if (parsed.value("delete-rate-limit") != null) {
        action.deleteRateLimit(parsed.longValue("delete-rate-limit", 0));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    return action
        .deleteUnverified(parsed.flag("delete-unverified"))
        .errorIfTaggedOldVersions(!parsed.flag("no-error-if-tagged-old-versions"))
        .cleanReferencedBranches(parsed.flag("clean-referenced-branches"))
        .dryRun(parsed.flag("dry-run"));
  }

  private static CleanupEngine engine(String name) {
    String wanted = name == null ? "local" : name;
    Set<String> available = new TreeSet<>();
    for (CleanupEngine engine : ServiceLoader.load(CleanupEngine.class)) {
      if (engine.name().equals(wanted)) {
        return engine;
      }
      available.add(engine.name());
    }
    throw new UsageException(
        "No engine '" + wanted + "' on the classpath (available: " + String.join(", ", available) + ")");
  }

  /** Where results go: plain text or one JSON object. */
  private interface Output extends AutoCloseable {
    void file(CandidateFile file);

    void result(CleanupResult result);

    void error(String message);

    @Override
    void close();
  }

  private static final class TextOutput implements Output {
    private final PrintStream out;
    private final String table;

    TextOutput(PrintStream out, String table) {
      this.out = out;
      this.table = table;
    }

    @Override
    public void file(CandidateFile file) {
      out.printf("%-16s %-12s %12d  %s%n", file.reason().sqlName(), file.kind(), file.bytes(), file.path());
    }

    @Override
    public void result(CleanupResult result) {
      out.printf("%s %s (latest version %d):%n",
          result.mode() == CleanupMode.DRY_RUN ? "Dry run of cleanup of" : "Cleaned up",
          table, result.readVersion());
      result.namedCounters().forEach((name, value) -> out.printf("  %-26s %d%n", name, value));
    }

    @Override
    public void error(String message) {}

    @Override
    public void close() {
      out.flush();
    }
  }

  /** Streams {@code {"table": ..., "files": [...], <counters>}} so a dry run of millions of files needs no buffer. */
  private static final class JsonOutput implements Output {
    private final PrintStream out;
    private final JsonGenerator json;
    private boolean filesOpen;

    JsonOutput(PrintStream out, String table) {
      this.out = out;
      this.json = Json.generator(out);
      write(() -> {
        json.writeStartObject();
        json.writeStringField("table", table);
      });
    }

    @Override
    public void file(CandidateFile file) {
      write(() -> {
        if (!filesOpen) {
          json.writeArrayFieldStart("files");
          filesOpen = true;
        }
        json.writeStartObject();
        json.writeStringField("path", file.path());
        json.writeStringField("kind", file.kind().name().toLowerCase(Locale.ROOT));
        json.writeNumberField("bytes", file.bytes());
        json.writeStringField("reason", file.reason().sqlName());
        json.writeEndObject();
      });
    }

    private void closeFiles() throws IOException {
      if (filesOpen) {
        json.writeEndArray();
        filesOpen = false;
      }
    }

    @Override
    public void result(CleanupResult result) {
      write(() -> {
        closeFiles();
        json.writeStringField("mode", result.mode().name().toLowerCase(Locale.ROOT));
        for (Map.Entry<String, Long> counter : result.namedCounters().entrySet()) {
          json.writeNumberField(counter.getKey(), counter.getValue());
        }
      });
    }

    @Override
    public void error(String message) {
      write(() -> {
        closeFiles();
        json.writeStringField("error", message);
      });
    }

    @Override
    public void close() {
      write(() -> {
        closeFiles();
        json.writeEndObject();
        json.flush();
        out.println();
      });
    }

    private void write(Json.Write step) {
      try {
        step.run();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
