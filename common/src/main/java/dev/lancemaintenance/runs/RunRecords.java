package dev.lancemaintenance.runs;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The run records of one table, under {@value #DIR}: per run a start file and, once it returned or
 * failed, an end file, {@code <started, epoch ms, 13 digits>-<run id>.start|.end}, so that names
 * sort by start. Each file is created whole with {@link TableStorage#createIfAbsent} and never
 * changed (a run's end is a second file, not an update), so a crash at any point leaves either no
 * file or a whole one; a file that does not parse anyway (a store without atomic publication, a
 * hand edit) is skipped with a warning naming it and decides nothing.
 *
 * <p>Lance never lists {@code _maintenance/}, and our cleanup lists only Lance's directories, so
 * the records are nobody's garbage (docs/ledger.md, "Run records").
 */
public final class RunRecords {
  private static final Logger LOG = LoggerFactory.getLogger(RunRecords.class);

  /** Where the records live, beside the lease and the ledger. */
  public static final String DIR = TableLease.DIR + "/runs";
  static final String START = ".start";
  static final String END = ".end";
  static final String FILES = ".files";
  static final String DECIDED = ".decided";

  /**
   * Ended runs kept by {@link #pruning}: a constant, not an option, because a record is two files of
   * about a kilobyte, so a hundred runs (three months of daily runs) cost nothing to keep or to list,
   * and one more option would be one more argument on every entry point for little gain.
   */
  public static final int KEEP_ENDED_RUNS = 100;

  private final TableStorage storage;

  public RunRecords(TableStorage storage) {
    this.storage = storage;
  }

  /** Records that {@code start}'s run began; false when a record of that name exists already. */
  public boolean writeStart(RunStart start) {
    return storage.createIfAbsent(path(start, START), RecordText.encode(start.fields()));
  }

  /** Records how {@code start}'s run ended; false when its end was recorded already. */
  public boolean writeEnd(RunStart start, RunEnd end) {
    if (!end.runId().equals(start.runId())) {
      throw new IllegalArgumentException("the end of run " + end.runId() + " is not the end of run " + start.runId());
    }
    return storage.createIfAbsent(path(start, END), RecordText.encode(end.fields()));
  }

  /**
   * The newest {@code limit} runs, newest first. A run without an end is {@link RunState#RUNNING}
   * while the lease it took is in force ({@link TableLease#currentOwner}) and {@link
   * RunState#UNFINISHED} once it is not: the run died.
   */
  public List<RunEntry> history(int limit, Clock clock) {
    if (limit < 1) {
      throw new IllegalArgumentException("the history's limit must be at least 1, not " + limit);
    }
    TreeMap<String, Map<String, FileEntry>> runs = runsNewestFirst();
    Optional<String> leaseOwner = TableLease.currentOwner(storage, clock);
    List<RunEntry> entries = new ArrayList<>();
    for (Map.Entry<String, Map<String, FileEntry>> run : runs.entrySet()) {
      if (entries.size() == limit) {
        break;
      }
      FileEntry startFile = run.getValue().get(START);
      Optional<RunStart> start = startFile == null ? Optional.empty() : read(startFile, RunStart::of)
          .filter(record -> matches(startFile, run.getKey(), record.runId(), record));
      if (start.isEmpty()) {
        continue;
      }
      FileEntry endFile = run.getValue().get(END);
      Optional<RunEnd> end = endFile == null ? Optional.empty() : read(endFile, RunEnd::of)
          .filter(record -> matches(endFile, run.getKey(), record.runId(), start.get()));
      RunState state = end.map(RunEnd::state).orElse(
          leaseOwner.filter(start.get().leaseOwner()::equals).isPresent() ? RunState.RUNNING : RunState.UNFINISHED);
      entries.add(new RunEntry(start.get(), end, state));
    }
    return entries;
  }

  /**
   * What a finished run removes, chosen under the table lease from one listing and deleted later
   * ({@link #delete}; {@link RunRecorder#finishedAndPruned} sends that beside the lease's release):
   * every run's recorded decision (its plan and decided parts, {@code <stem>.decided/}), and the
   * records of ended runs older than the newest {@code keep} runs, with the files they recorded
   * ({@link RecordedFiles}).
   *
   * <p>A decision is resumed only from the newest run, and only when it died, so once a run
   * finished none ever is, and keeping them would keep a copy of every decided path. Runs without
   * an end (running, or dead and unfinished) stay whatever their age: they are what a later run
   * looks for to resume, and what an operator needs to see. No other run writes records meanwhile
   * (the lease), so one recursive listing of {@value #DIR} sees every file either rule removes, and
   * one delete removes them: on an object store two round trips, where a listing per rule made
   * four. What cannot be deleted is logged and left for the next finished run.
   */
  public Pruning pruning(int keep) {
    if (keep < 1) {
      throw new IllegalArgumentException("the runs kept must be at least 1, not " + keep);
    }
    List<FileEntry> records = new ArrayList<>();
    List<String> doomed = new ArrayList<>();
    Map<String, List<String>> recordedFilesByStem = new HashMap<>();
    for (Iterator<FileEntry> files = storage.listFiles(DIR, true); files.hasNext(); ) {
      FileEntry file = files.next();
      String relative = file.path().substring(DIR.length() + 1);
      int slash = relative.indexOf('/');
      String top = slash < 0 ? relative : relative.substring(0, slash);
      if (slash < 0) {
        records.add(file);
      } else if (top.endsWith(DECIDED)) {
        doomed.add(file.path());
      } else if (top.endsWith(FILES)) {
        recordedFilesByStem.computeIfAbsent(top.substring(0, top.length() - FILES.length()), stem -> new ArrayList<>())
            .add(file.path());
      }
    }
    int runsPruned = 0;
    for (Map.Entry<String, Map<String, FileEntry>> run : runsNewestFirst(records.iterator()).entrySet().stream().skip(keep).toList()) {
      if (run.getValue().containsKey(END)) {
        run.getValue().values().forEach(file -> doomed.add(file.path()));
        doomed.addAll(recordedFilesByStem.getOrDefault(run.getKey(), List.of()));
        runsPruned++;
      }
    }
    return new Pruning(doomed, runsPruned);
  }

  /**
   * What {@link #pruning} chose, not yet deleted.
   *
   * @param files every file to delete
   * @param runs how many ended runs' records are among them
   */
  public record Pruning(List<String> files, int runs) {
    public Pruning {
      files = List.copyOf(files);
    }
  }

  /** Deletes what {@code pruning} lists; a file that cannot be deleted is logged and left for the next prune. */
  public void delete(Pruning pruning) {
    deleteLogged(pruning.files());
  }

  /**
   * The run a run of id {@code ownRunId} may resume: the newest other run, when it has no end and
   * its lease is no longer in force (it died). Only the newest: a run that ended after it did all
   * it decided, so an older dead run's decision is stale. Empty when there is none, or its start
   * does not read (skipped with a warning).
   *
   * @param leaseOwner the owner of the lease in force ({@link TableLease#currentOwner}); a run that
   *     holds the lease passes its own, without reading it
   */
  public Optional<RunStart> deadRunBefore(String ownRunId, Optional<String> leaseOwner) {
    for (Map.Entry<String, Map<String, FileEntry>> run : runsNewestFirst().entrySet()) {
      if (run.getKey().endsWith("-" + ownRunId)) {
        continue;
      }
      FileEntry startFile = run.getValue().get(START);
      if (run.getValue().containsKey(END) || startFile == null) {
        return Optional.empty();
      }
      return read(startFile, RunStart::of)
          .filter(start -> matches(startFile, run.getKey(), start.runId(), start))
          .filter(start -> leaseOwner.filter(start.leaseOwner()::equals).isEmpty());
    }
    return Optional.empty();
  }

  private void deleteLogged(List<String> doomed) {
    for (int from = 0; from < doomed.size(); from += storage.maxDeleteBatchSize()) {
      storage.deleteBatch(doomed.subList(from, Math.min(doomed.size(), from + storage.maxDeleteBatchSize())))
          .forEach(failure -> LOG.warn("lance maintenance {}: could not prune run record {}: {}",
              storage.location(), failure.path(), failure.reason()));
    }
  }

  /** Every run's record files by stem, newest first, without reading them. */
  private TreeMap<String, Map<String, FileEntry>> runsNewestFirst() {
    return runsNewestFirst(storage.listFiles(DIR, false));
  }

  /** As {@link #runsNewestFirst()}, of the files directly in {@value #DIR} that {@code files} gives. */
  private static TreeMap<String, Map<String, FileEntry>> runsNewestFirst(Iterator<FileEntry> files) {
    TreeMap<String, Map<String, FileEntry>> runs = new TreeMap<>(Comparator.reverseOrder());
    while (files.hasNext()) {
      FileEntry file = files.next();
      String name = Generations.lastSegment(file.path());
      for (String suffix : List.of(START, END)) {
        if (name.endsWith(suffix) && !name.startsWith(".")) {
          runs.computeIfAbsent(name.substring(0, name.length() - suffix.length()), stem -> new TreeMap<>()).put(suffix, file);
        }
      }
    }
    return runs;
  }

  private <T> Optional<T> read(FileEntry file, Function<Map<String, String>, T> parse) {
    try {
      return Optional.of(parse.apply(RecordText.decode(storage.readFully(file.path()))));
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: skipping run record {}: {}", storage.location(), file.path(), e.getMessage());
      return Optional.empty();
    }
  }

  /** Whether a record's run id is the one its file is named for: a record copied under another name decides nothing. */
  private boolean matches(FileEntry file, String stem, String runId, RunStart start) {
    if (stem.equals(stem(start)) && runId.equals(start.runId())) {
      return true;
    }
    LOG.warn("lance maintenance {}: skipping run record {}: it records run {}", storage.location(), file.path(), runId);
    return false;
  }

  private static String stem(RunStart start) {
    return String.format("%013d-%s", start.startedAt().toEpochMilli(), start.runId());
  }

  static String path(RunStart start, String suffix) {
    return DIR + "/" + stem(start) + suffix;
  }

  /** Where {@code start}'s run records the files it deleted, when asked to ({@link RecordedFiles}). */
  static String filesDir(RunStart start) {
    return path(start, FILES);
  }

  /** Where {@code start}'s run records its plan and the files its decide tasks decided ({@link RunPlan}). */
  static String decidedDir(RunStart start) {
    return path(start, DECIDED);
  }

  TableStorage storage() {
    return storage;
  }
}
