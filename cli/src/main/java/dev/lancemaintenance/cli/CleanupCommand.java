package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.UserErrors;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupAction;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupProgress;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.local.LocalMaintenanceEngine;
import dev.lancemaintenance.storage.TableLocation;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code cleanup <table-uri> [options]}: runs a cleanup on the chosen engine and prints its
 * counters; a dry run also prints every file that would go, as it is decided. {@code
 * remove-orphans <table-uri> [options]} is the same run with the orphan-sweep policy ({@link
 * CleanupAction#orphanFilesOnly()}) and its own options ({@link Kind}).
 */
final class CleanupCommand {
  /** What the command runs: a cleanup, or remove_orphan_files (the same stages, no version expiring). */
  enum Kind {
    CLEANUP("cleanup", CleanupOption.CATALOGUE, "Cleaned up"),
    REMOVE_ORPHANS("remove-orphans", CleanupOption.ORPHAN_FILES_CATALOGUE, "Removed orphan files of");

    final String command;
    final OptionCatalogue catalogue;
    private final String done;

    Kind(String command, OptionCatalogue catalogue, String done) {
      this.command = command;
      this.catalogue = catalogue;
      this.done = done;
    }

    /** The engine's action for this command. */
    CleanupAction action(CleanupAction cleanup) {
      return this == REMOVE_ORPHANS ? cleanup.orphanFilesOnly() : cleanup;
    }
  }

  /** Command-line arguments of cleanup that are not cleanup options: where and how it runs. */
  private static final Set<String> OWN_FLAGS = Set.of("json", "no-progress");
  private static final Set<String> OWN_VALUED = Set.of(
      "before-timestamp-millis", "engine", "conf", "engine-option", "master", "parallelism", "spill-dir",
      "progress-interval");
  /** Plain progress lines (not on a terminal) come this often unless {@code --progress-interval} says. */
  static final long DEFAULT_PROGRESS_SECONDS = 10;

  static final String USAGE = usage(Kind.CLEANUP);
  static final String ORPHANS_USAGE = usage(Kind.REMOVE_ORPHANS);

  private final Kind kind;
  private final Clock clock;
  private final Engines engines;
  private final boolean verbose;

  CleanupCommand(Clock clock, Engines engines, boolean verbose) {
    this(Kind.CLEANUP, clock, engines, verbose);
  }

  CleanupCommand(Kind kind, Clock clock, Engines engines, boolean verbose) {
    this.kind = kind;
    this.clock = clock;
    this.engines = engines;
    this.verbose = verbose;
  }

  /** The synopsis, generated from the option catalogue so that it lists every option there is. */
  private static String usage(Kind kind) {
    List<String> items = OptionArguments.usageItems(kind.catalogue.options());
    items.add(items.indexOf(OptionArguments.usageItem(CleanupOption.OLDER_THAN)) + 1, "[--before-timestamp-millis MS]");
    items.addAll(List.of(
        "[--json]", "[--engine local|spark|flink]", "[--conf HADOOP_KEY=VALUE]...",
        "[--engine-option KEY=VALUE]...", "[--master URL]", "[--parallelism N]", "[--spill-dir DIR]",
        "[--no-progress]", "[--progress-interval SECONDS]"));
    return OptionArguments.synopsis(kind.command + " <table-uri>", items);
  }

  /** Every {@code --name} cleanup takes, without the dashes: the catalogue's and the command line's own. */
  static Set<String> flags() {
    return flags(Kind.CLEANUP);
  }

  static Set<String> valued() {
    return valued(Kind.CLEANUP);
  }

  private static Set<String> flags(Kind kind) {
    return OptionArguments.flags(kind.catalogue.options(), OWN_FLAGS);
  }

  private static Set<String> valued(Kind kind) {
    return OptionArguments.valued(kind.catalogue.options(), OWN_VALUED);
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    boolean json = args.contains("--json");
    String table = args.stream().filter(arg -> !arg.startsWith("--")).findFirst().map(TableLocation::redact).orElse("");
    try {
      return runChecked(args, out, err);
    } catch (RuntimeException e) {
      if (json) {
        // Every failure in --json mode is one JSON object with an error, whatever stage it came from.
        try (JsonOutput output = new JsonOutput(out, table)) {
          output.error(UserErrors.message(e));
        }
      }
      throw e;
    }
  }

  private int runChecked(List<String> args, PrintStream out, PrintStream err) {
    CliArguments parsed = CliArguments.parse(args, flags(kind), valued(kind));
    String tableUri = parsed.onlyPositional(kind.command + " takes exactly one table URI");
    boolean json = parsed.flag("json");
    CleanupAction action;
    CleanupProgress progress = new CleanupProgress();
    Duration progressInterval = progressInterval(parsed);
    try {
      // Parsed first: a URI with credentials is refused before any library sees it.
      TableLocation.of(tableUri);
      String table = TableLocation.redact(tableUri);
      Map<CleanupOption, Object> options = options(parsed, kind.catalogue.options());
      action = CleanupOption.applyTo(
          kind.action(engines.named(parsed.value("engine")).cleanup(tableUri, parsed.hadoopConf(), engineOptions(parsed))),
          options, clock.instant());
      action.onProgress(progress);
      if (parsed.value("before-timestamp-millis") != null) {
        action.beforeTimestamp(Instant.ofEpochMilli(parsed.longValue("before-timestamp-millis", 0)));
      }
      tableUri = table;
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    try (Output output = json ? new JsonOutput(out, tableUri) : new TextOutput(out, tableUri, kind)) {
      if (parsed.flag("dry-run")) {
        // A real run names its files on the audit logger only; a dry run is about the files.
        action.onRemovedFile(output::file);
      }
      try {
        CleanupResult result;
        Optional<ProgressDisplay> display = progressDisplay(parsed, progress, progressInterval, err);
        try {
          result = action.execute();
          display.ifPresent(ProgressDisplay::finish);
        } finally {
          display.ifPresent(ProgressDisplay::close);
        }
        output.result(result);
        return exitCodeOf(result.counters().failedDeletes(), tableUri, err);
      } catch (Exception e) { // engines throw checked ones too (a Spark job failure)
        String message = UserErrors.message(e);
        output.error(message);
        err.println("lance-maintenance: " + message);
        if (verbose) {
          e.printStackTrace(err);
        }
        return 1;
      }
    }
  }

  /**
   * Where the run's progress shows, on stderr: a bar on a terminal (unless stdout is {@code
   * --json}, which a terminal user pipes), plain lines every {@code --progress-interval} seconds
   * otherwise, nothing with {@code --no-progress}.
   */
  private static Optional<ProgressDisplay> progressDisplay(
      CliArguments parsed, CleanupProgress progress, Duration interval, PrintStream err) {
    if (parsed.flag("no-progress")) {
      return Optional.empty();
    }
    if (drawsBar(parsed.flag("json"))) {
      return Optional.of(ProgressDisplay.bar(progress, err));
    }
    return Optional.of(ProgressDisplay.lines(progress, err, interval));
  }

  /** Whether this command line, run by {@code main}, draws the progress bar rather than lines. */
  static boolean drawsBar(List<String> commandLine) {
    return !commandLine.isEmpty() && isCommand(commandLine.get(0)) && !commandLine.contains("--no-progress")
        && drawsBar(commandLine.contains("--json"));
  }

  private static boolean isCommand(String name) {
    return Arrays.stream(Kind.values()).anyMatch(kind -> kind.command.equals(name));
  }

  /** On a terminal, unless stdout is {@code --json}, which a terminal user pipes somewhere. */
  private static boolean drawsBar(boolean json) {
    return System.console() != null && !json;
  }

  /** {@code --progress-interval}, checked before anything runs. */
  private static Duration progressInterval(CliArguments parsed) {
    long seconds = parsed.longValue("progress-interval", DEFAULT_PROGRESS_SECONDS);
    if (seconds < 1) {
      throw new UsageException("--progress-interval must be at least 1 second, not " + seconds);
    }
    return Duration.ofSeconds(seconds);
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

  /** The catalogue options given on the command line, each at most once. */
  static Map<CleanupOption, Object> options(CliArguments parsed) {
    return options(parsed, CleanupOption.CATALOGUE.options());
  }

  /** The options among {@code accepted} given on the command line, each at most once (describe takes the policy's). */
  static Map<CleanupOption, Object> options(CliArguments parsed, List<? extends MaintenanceOption> accepted) {
    if (parsed.value("older-than") != null && parsed.value("before-timestamp-millis") != null) {
      throw new UsageException("Give either --older-than or --before-timestamp-millis, not both");
    }
    Map<CleanupOption, Object> options = new EnumMap<>(CleanupOption.class);
    options.putAll(OptionCatalogue.only(CleanupOption.class, OptionArguments.values(parsed, accepted)));
    return options;
  }

  static Map<String, String> engineOptions(CliArguments parsed) {
    Map<String, String> engineOptions = parsed.keyValues("engine-option");
    if (parsed.value("master") != null) {
      engineOptions.put("master", parsed.value("master"));
    }
    if (parsed.value("parallelism") != null) {
      long parallelism = parsed.longValue("parallelism", 0);
      if (parallelism < 1) {
        throw new UsageException("--parallelism must be at least 1, not " + parallelism);
      }
      engineOptions.put(LocalMaintenanceEngine.PARALLELISM, parsed.value("parallelism"));
    }
    if (parsed.value("spill-dir") != null) {
      engineOptions.put(LocalMaintenanceEngine.SPILL_DIR, parsed.value("spill-dir"));
    }
    return engineOptions;
  }

  /** Where results go: plain text or one JSON object. */
  interface Output extends AutoCloseable {
    void file(CandidateFile file);

    void result(CleanupResult result);

    void error(String message);

    @Override
    void close();
  }

  static final class TextOutput implements Output {
    private final PrintStream out;
    private final String table;
    private final String command;
    private final String done;

    TextOutput(PrintStream out, String table, Kind kind) {
      this(out, table, kind.command, kind.done);
    }

    /** @param command the command's name in the dry run's heading, {@code done} the heading's verb after a run */
    TextOutput(PrintStream out, String table, String command, String done) {
      this.out = out;
      this.table = table;
      this.command = command;
      this.done = done;
    }

    @Override
    public void file(CandidateFile file) {
      out.printf("%-16s %-12s %12d  %s%n", file.reason().sqlName(), file.kind(), file.bytes(), file.path());
    }

    @Override
    public void result(CleanupResult result) {
      out.printf("%s %s (latest version %d):%n",
          result.mode() == CleanupMode.DRY_RUN ? "Dry run of " + command + " of" : done,
          table, result.readVersion());
      result.row().forEach((name, value) -> out.printf("  %-26s %s%n", name, value));
    }

    @Override
    public void error(String message) {}

    @Override
    public void close() {
      out.flush();
    }
  }

  /** Streams {@code {"table": ..., "files": [...], <counters>}} so a dry run of millions of files needs no buffer. */
  static final class JsonOutput implements Output {
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
        for (Map.Entry<String, Object> column : result.row().entrySet()) {
          if (column.getValue() instanceof Long number) {
            json.writeNumberField(column.getKey(), number);
          } else {
            json.writeStringField(column.getKey(), column.getValue().toString());
          }
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
