package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.OptionCatalogue;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The one catalogue of cleanup options: every entry point (command line, Spark {@code CALL}, Flink
 * {@code CALL}, the Java API's {@link CleanupAction#options(Map)}) is generated from it or checked
 * against it by a test, and {@link #applyTo} is the one place that turns given values into settings
 * of an action. Names are Lance's ({@code cleanup_with_policy}) where Lance has the option.
 *
 * <p>An entry point rejects a name that is not here, or given twice, before anything is read; and a
 * NULL for an option that {@link #changesWhatIsDeleted()} is an error, never the default: a
 * mistake must not widen a delete.
 */
public enum CleanupOption implements MaintenanceOption {
  OLDER_THAN(
      "older_than", Type.CUTOFF, "7d", true,
      "versions whose manifest is older than this go: a duration (7d, 36h, 14days, 2h 30m, PT2H) or an ISO"
          + " instant (2026-01-31T00:00:00Z)"),
  BEFORE_VERSION("before_version", Type.LONG, null, true, "only versions strictly below this one go"),
  DELETE_UNVERIFIED(
      "delete_unverified", Type.BOOLEAN, "false", true,
      "also delete unreferenced files younger than 7 days; races concurrent writers (an uncommitted write's"
          + " files are unreferenced), so files younger than the retention guard (1 day) are kept unless"
          + " allow_short_retention"),
  ERROR_IF_TAGGED_OLD_VERSIONS(
      "error_if_tagged_old_versions", Type.BOOLEAN, "true", true,
      "refuse the run when a tagged version would go; false keeps tagged versions and cleans the rest"),
  CLEAN_REFERENCED_BRANCHES(
      "clean_referenced_branches", Type.BOOLEAN, "false", true,
      "also clean the branches whose fork point this run removes, with their own auto-cleanup config"),
  DRY_RUN("dry_run", Type.BOOLEAN, "false", true, "list the files that would go, delete nothing"),
  MAX_CONCURRENT_DELETES(
      "max_concurrent_deletes", Type.INT, String.valueOf(CleanupSettings.DEFAULT_MAX_CONCURRENT_DELETES), false,
      "delete requests in flight at once"),
  DELETE_RATE_LIMIT("delete_rate_limit", Type.LONG, "0", false, "file deletes per second across the run, 0 for no limit"),
  BRANCH("branch", Type.STRING, null, true, "clean this branch of the table instead of the main line"),
  /** After the options that existed before it, so that positional SQL calls keep their meaning. */
  ALLOW_SHORT_RETENTION(
      "allow_short_retention", Type.BOOLEAN, "false", true,
      "let delete_unverified run with older_than below the retention guard (1 day) and delete unreferenced"
          + " files younger than it; only when nothing writes to the table"),
  RETAIN_LAST(
      "retain_last", Type.INT, null, true,
      "keep this many of the newest versions whatever their age (at least 1); only ever keeps more than"
          + " older_than and before_version would"),
  MAX_DELETES(
      "max_deletes", Type.LONG, null, true,
      "stop after this many file deletes, the rest for the next run; the expired versions' manifests go"
          + " only in a run that deleted every other file it decided"),
  /**
   * New options go last, so that positional SQL calls written before them keep their meaning. Not a
   * policy option: every mode marks exactly the same files (docs/cleanup-semantics.md, section 13), so
   * a NULL means the default.
   */
  MODE(
      "mode", Type.STRING, "full", false,
      "how retained versions are marked: full decodes every manifest; incremental reads only what the"
          + " maintenance ledger (_maintenance/ledger/) cannot answer (new and changed manifests) and records what it"
          + " learnt, the same files go"),
  VERIFY(
      "verify", Type.BOOLEAN, "false", false,
      "mark both ways (full and from the ledger) and refuse the run, deleting nothing, on any difference"),
  INVENTORY(
      "inventory", Type.STRING, null, true,
      "list the table from this S3 Inventory report (the URI of its manifest.json, CSV or Parquet) instead of the store;"
          + " only files it lists go, files and versions newer than it stay"),
  RECORD_FILES(
      "record_files", Type.BOOLEAN, "false", false,
      "write the path, kind and bytes of every deleted file beside the run record (_maintenance/runs/<run>.files/),"
          + " one part per sweep task; history names the directory"),
  LISTING(
      "listing", Type.STRING, "always", false,
      "always: every run lists the managed directories; auto: a daily incremental run on S3 examines only the"
          + " names that can go instead, when the last runs left what it needs (for tables of many files: on a"
          + " table of a few thousand the listing beside the plan is faster). Keep always where objects can reach"
          + " the table with an old modification time behind the store's API (MinIO or s3proxy written to"
          + " directly, a copy that keeps times)"),
  DISTRIBUTE_ABOVE(
      DistributeAbove.NAME, Type.INT, String.valueOf(DistributeAbove.DEFAULT), false,
      "spark and flink: a run that reads at most this many versions' manifests is cleaned in the driver (Flink: the"
          + " client) by the local engine: a table of at most this many versions, or a daily incremental run with at"
          + " most this many new since the last run's key snapshot, which it decides from; other runs as jobs; 0"
          + " runs every table as jobs; the same files go either way (the local engine always runs in process);"
          + " cleanup_all runs such tables on its tasks (Flink: subtasks), the others through the driver");

  /** The values of {@link #LISTING}. */
  private static final List<String> LISTING_VALUES = List.of("auto", "always");

  /** Every cleanup option, for the entry points of {@code cleanup}. */
  public static final OptionCatalogue CATALOGUE = OptionCatalogue.of("cleanup", List.of(values()));

  /**
   * The options of {@code remove_orphan_files}, in catalogue order: an orphan sweep expires no
   * version ({@link CleanupPolicy.Builder#orphanSweep}), so the options that choose versions ({@code
   * before_version}, {@code retain_last}, tags, branches to cascade into) and {@code
   * delete_unverified} (always on) are not among them, nor the marking mode; {@code older_than} is
   * the files' window. New ones go last, as in {@link #CATALOGUE}.
   */
  public static final OptionCatalogue ORPHAN_FILES_CATALOGUE = OptionCatalogue.of("remove_orphan_files", List.of(
      OLDER_THAN, DRY_RUN, MAX_CONCURRENT_DELETES, DELETE_RATE_LIMIT, BRANCH, ALLOW_SHORT_RETENTION, MAX_DELETES,
      INVENTORY));

  private final Declaration declaration;
  private final boolean changesWhatIsDeleted;

  CleanupOption(String sqlName, Type type, String defaultValue, boolean changesWhatIsDeleted, String doc) {
    this.declaration = new Declaration(sqlName, type, defaultValue, doc);
    this.changesWhatIsDeleted = changesWhatIsDeleted;
  }

  @Override
  public Declaration declaration() {
    return declaration;
  }

  @Override
  public boolean changesWhatIsDeleted() {
    return changesWhatIsDeleted;
  }

  @Override
  public String kind() {
    return "Cleanup";
  }

  @Override
  public String cliPlaceholder() {
    return switch (this) {
      case DELETE_RATE_LIMIT -> "FILES_PER_SECOND";
      case MODE -> "full|incremental";
      case INVENTORY -> "MANIFEST_URI";
      case LISTING -> "auto|always";
      default -> MaintenanceOption.super.cliPlaceholder();
    };
  }

  /** A cutoff, a mode, a listing and a threshold are checked here, so a malformed one fails where it is given, before anything is read. */
  @Override
  public Object parse(String text) {
    if (type() == Type.CUTOFF) {
      OlderThan.beforeTimestamp(text, Instant.EPOCH);
    }
    if (this == MODE) {
      MarkMode.ofOption(text);
    }
    if (this == DISTRIBUTE_ABOVE) {
      Object versions = MaintenanceOption.super.parse(text);
      DistributeAbove.checked(((Number) versions).longValue());
      return versions;
    }
    if (this == LISTING && text != null && !LISTING_VALUES.contains(text.toLowerCase(java.util.Locale.ROOT))) {
      throw new IllegalArgumentException("listing must be one of " + LISTING_VALUES + ", not '" + text + "'");
    }
    return MaintenanceOption.super.parse(text);
  }

  /** Whether the option says how a run executes rather than what it looks at (not in {@code cleanup_files}). */
  public boolean runSetting() {
    return this == DRY_RUN || this == MAX_CONCURRENT_DELETES || this == DELETE_RATE_LIMIT || this == MAX_DELETES
        || this == MODE || this == VERIFY || this == RECORD_FILES || this == LISTING || this == DISTRIBUTE_ABOVE;
  }

  /** Every option's SQL name, in catalogue order. */
  public static List<String> sqlNames() {
    return Arrays.stream(values()).map(CleanupOption::sqlName).collect(Collectors.toList());
  }

  /** The options without the run settings: what a listing of the files that would go takes. */
  public static List<CleanupOption> policyOptions() {
    return Arrays.stream(values()).filter(option -> !option.runSetting()).collect(Collectors.toList());
  }

  /**
   * Rejects a run setting given to {@code operation}, which deletes nothing (the storage report): it
   * takes the policy alone, and a {@code dry_run} accepted and ignored would mislead.
   */
  public static void requirePolicyOnly(String operation, Collection<CleanupOption> given) {
    for (CleanupOption option : given) {
      if (option.runSetting()) {
        throw new IllegalArgumentException(operation + " takes no '" + option.sqlName()
            + "': it deletes nothing; its options are " + policyOptions().stream().map(CleanupOption::sqlName).toList()
            + " and windows");
      }
    }
  }

  /** The option named {@code name} (case-insensitive, as SQL); the error names it and lists the valid ones. */
  public static CleanupOption named(String name, Collection<String> alsoValid) {
    return (CleanupOption) CATALOGUE.named(name, alsoValid);
  }

  /** The error for a name that is neither an option nor one of the entry point's own arguments. */
  public static IllegalArgumentException unknown(String name, Collection<String> alsoValid) {
    return CATALOGUE.unknown(name, alsoValid);
  }

  /** Rejects a name given twice (case-insensitive): which one should win is a guess. */
  public static void requireDistinct(Collection<String> names) {
    CATALOGUE.requireDistinct(names);
  }

  /**
   * Options parsed from text by name ({@code {"older_than": "7d", "dry_run": "true"}}), checked
   * against the catalogue: for option maps and the command line.
   */
  public static Map<CleanupOption, Object> parseAll(Map<String, String> textByName) {
    return parseAll(CATALOGUE, textByName);
  }

  /** Options parsed from text by name, checked against {@code catalogue} (cleanup's or remove_orphan_files'). */
  public static Map<CleanupOption, Object> parseAll(OptionCatalogue catalogue, Map<String, String> textByName) {
    Map<CleanupOption, Object> values = new EnumMap<>(CleanupOption.class);
    values.putAll(OptionCatalogue.only(CleanupOption.class, catalogue.parseAll(textByName)));
    return values;
  }

  /**
   * Applies the given values to {@code action}; options not given keep the action's (Lance's)
   * defaults. A CUTOFF is a {@link String} ({@link OlderThan}, relative to {@code now}), an {@link
   * Instant}, or a {@link Duration}: a window the action measures back from when it starts. The one place where an entry point's arguments become settings.
   */
  public static <A extends CleanupAction> A applyTo(A action, Map<CleanupOption, ?> values, Instant now) {
    values.forEach((option, value) -> option.apply(action, value, now));
    return action;
  }

  private void apply(CleanupAction action, Object value, Instant now) {
    if (value == null) {
      if (changesWhatIsDeleted) {
        throw nullValue();
      }
      return;
    }
    switch (this) {
      case OLDER_THAN -> {
        if (value instanceof Duration window) {
          action.olderThan(window);
        } else {
          action.beforeTimestamp(
              value instanceof Instant instant ? instant : OlderThan.beforeTimestamp((String) value, now));
        }
      }
      case BEFORE_VERSION -> action.beforeVersion(((Number) value).longValue());
      case DELETE_UNVERIFIED -> action.deleteUnverified((Boolean) value);
      case ALLOW_SHORT_RETENTION -> action.allowShortRetention((Boolean) value);
      case ERROR_IF_TAGGED_OLD_VERSIONS -> action.errorIfTaggedOldVersions((Boolean) value);
      case CLEAN_REFERENCED_BRANCHES -> action.cleanReferencedBranches((Boolean) value);
      case BRANCH -> action.branch((String) value);
      case DRY_RUN -> action.dryRun((Boolean) value);
      case MAX_CONCURRENT_DELETES -> action.maxConcurrentDeletes(((Number) value).intValue());
      case DELETE_RATE_LIMIT -> action.deleteRateLimit(((Number) value).longValue());
      case RETAIN_LAST -> action.retainLast(((Number) value).intValue());
      case MAX_DELETES -> action.maxDeletes(((Number) value).longValue());
      case MODE -> action.markMode(MarkMode.ofOption((String) value));
      case VERIFY -> action.verify((Boolean) value);
      case INVENTORY -> action.inventory((String) value);
      case RECORD_FILES -> action.recordFiles((Boolean) value);
      case LISTING -> action.alwaysList("always".equalsIgnoreCase((String) value));
      case DISTRIBUTE_ABOVE -> action.distributeAbove(DistributeAbove.checked(((Number) value).longValue()));
      default -> throw new IllegalStateException("unhandled option " + this);
    }
  }
}
