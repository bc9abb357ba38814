package dev.lancemaintenance.runs;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.RecordedListing;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableStorage;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run asked to {@code record_files} keeps the files it deleted: {@code <run>.files/} beside
 * its run record ({@code tree/<branch>/} under it for a referenced branch cleaned first), and in it
 * one part per sweep task and attempt, {@code part-<stage>-<task>-<attempt>}, written by the task
 * as it deletes, so that no list of paths is ever gathered on the driver.
 *
 * <p>A part is a record file (one {@code file=<kind> <bytes> <reason> <path>} line per deleted file,
 * tab-separated, then the number of files and bytes, a CRC-32C and {@code end}) written as a stream:
 * a task that dies leaves a part without its end, which never reads. A task retried writes a part of
 * its own attempt, and the reader takes, per task, one attempt that ended whole: a task's deletes
 * are idempotent (a file already gone counts as deleted), so any whole attempt lists the same files.
 * Recording is best effort, like every run record: a part that cannot be written is logged and the
 * sweep goes on.
 *
 * @param dir the directory of the parts, relative to the table
 */
public record RecordedFiles(String dir) implements Serializable {
  private static final Logger LOG = LoggerFactory.getLogger(RecordedFiles.class);
  private static final String PART = "part-";
  private static final String FILE = "file";
  private static final String LISTED = "listed";
  private static final String DECIDE = "decide";
  private static final String PLAN = "plan";
  private static final int BUFFER_BYTES = 1 << 16;

  public RecordedFiles {
    Objects.requireNonNull(dir, "dir");
  }

  /** The parts of one dataset of the run: its own directory for a branch cleaned first. */
  public RecordedFiles forDataset(DatasetRef dataset) {
    return dataset.isMain() ? this : new RecordedFiles(dir + "/" + dataset.dir());
  }

  /**
   * The part of one attempt of one task of a sweep stage ({@code sweep}, {@code release}); nothing
   * is written before its first file.
   */
  public Part part(TableStorage storage, String stage, int task, int attempt) {
    return new Part(storage, dir + "/" + PART + stage + "-" + task + "-" + attempt);
  }

  /**
   * The part of one attempt of one decide task: the files it decided and those it kept only for
   * their age, as listed ({@link Part#addListed}), so that a later run can resume the sweep from
   * them and decide them again. Written even when the
   * task decided nothing, so that a task with no whole part means an undecided partition, never an
   * empty one.
   */
  public Part decidePart(TableStorage storage, int task, int attempt) {
    return new Part(storage, dir + "/" + PART + DECIDE + "-" + task + "-" + attempt, true);
  }

  /**
   * One whole part per decide task {@code 0 .. tasks - 1} (the first attempt whose part ends whole,
   * by its last bytes: the checksum is verified as a resumed run reads it), or why not: a task
   * without one left its partition undecided, and a resume from these parts would miss its files.
   */
  public DecidedParts decidedParts(TableStorage storage, int tasks) {
    Map<Integer, String> whole = new TreeMap<>();
    String prefix = PART + DECIDE + "-";
    for (Iterator<FileEntry> files = storage.listFiles(dir, false); files.hasNext(); ) {
      FileEntry file = files.next();
      String name = Generations.lastSegment(file.path());
      int dash = name.lastIndexOf('-');
      if (!name.startsWith(prefix) || dash <= prefix.length()) {
        continue;
      }
      try {
        int task = Integer.parseInt(name.substring(prefix.length(), dash));
        if (!whole.containsKey(task) && endsWhole(storage, file)) {
          whole.put(task, file.path());
        }
      } catch (NumberFormatException e) {
        LOG.warn("lance maintenance {}: skipping recorded decided files {}: not a decide part", storage.location(), file.path());
      }
    }
    for (int task = 0; task < tasks; task++) {
      if (!whole.containsKey(task)) {
        return new DecidedParts(List.of(), "decide task " + task + " left no whole part under " + dir);
      }
    }
    if (whole.size() != tasks) {
      return new DecidedParts(List.of(), "the plan names " + tasks + " decide tasks and " + whole.size() + " recorded parts");
    }
    return new DecidedParts(whole.values().stream().map(DecidedPart::new).toList(), "");
  }

  private static boolean endsWhole(TableStorage storage, FileEntry file) {
    int tail = RecordText.END_LINE.length + 1;
    if (file.size() < tail) {
      return false;
    }
    byte[] last = storage.read(file.path(), file.size() - tail, tail);
    return java.util.Arrays.equals(last, 1, tail, RecordText.END_LINE, 0, RecordText.END_LINE.length) && last[0] == '\n';
  }

  /**
   * The decided parts of a run, one per decide task, or why they cannot stand for its decision.
   *
   * @param problem empty when every task has a whole part
   */
  public record DecidedParts(List<DecidedPart> parts, String problem) {
    public DecidedParts {
      parts = List.copyOf(parts);
    }

    public boolean complete() {
      return problem.isEmpty();
    }
  }

  /** Where this run's plan is kept, beside its decided parts. */
  public String planPath() {
    return dir + "/" + PLAN;
  }

  /**
   * Records the run's plan, created whole; never fails the run (a plan that cannot be written means
   * a later run starts over instead of resuming this one), so it only logs why not.
   */
  public void writePlan(TableStorage storage, RunPlan plan) {
    try {
      if (!storage.createIfAbsent(planPath(), plan.encode())) {
        LOG.warn("lance maintenance {}: plan {} exists already; a later run will not resume this one", storage.location(), planPath());
      }
    } catch (RuntimeException e) {
      LOG.warn("lance maintenance {}: could not record the plan {} (the run goes on; a later run starts over): {}",
          storage.location(), planPath(), e.getMessage());
    }
  }

  /** The part files under this directory and its branches', by name only: what a run's end record counts. */
  public long countParts(TableStorage storage) {
    long parts = 0;
    for (Iterator<FileEntry> files = storage.listFiles(dir, true); files.hasNext(); ) {
      if (Generations.lastSegment(files.next().path()).startsWith(PART)) {
        parts++;
      }
    }
    return parts;
  }

  /**
   * The whole parts directly in this directory, one per task ({@code sweep-3}), its files in the
   * order deleted; parts cut short or garbled are skipped with a warning naming them. Reads each part
   * whole: for the tests and {@code history --files}, not for a run.
   */
  public List<WholePart> read(TableStorage storage) {
    Map<String, WholePart> byTask = new TreeMap<>();
    for (Iterator<FileEntry> files = storage.listFiles(dir, false); files.hasNext(); ) {
      String path = files.next().path();
      String name = Generations.lastSegment(path);
      if (!name.startsWith(PART)) {
        continue;
      }
      String task = name.substring(PART.length(), name.lastIndexOf('-'));
      if (byTask.containsKey(task)) {
        continue;
      }
      try {
        byTask.put(task, new WholePart(path, task, decode(RecordText.verifiedBody(storage.readFully(path)))));
      } catch (RuntimeException e) {
        LOG.warn("lance maintenance {}: skipping recorded files {}: {}", storage.location(), path, e.getMessage());
      }
    }
    return List.copyOf(byTask.values());
  }

  /** The files of a part that ended whole. */
  public record WholePart(String path, String task, List<CandidateFile> files) {
    public WholePart {
      files = List.copyOf(files);
    }
  }

  private static List<CandidateFile> decode(String body) {
    List<CandidateFile> files = new ArrayList<>();
    long count = -1;
    for (String line : body.split("\n")) {
      if (line.startsWith(FILE + "=")) {
        String[] fields = line.substring(FILE.length() + 1).split("\t", 4);
        files.add(new CandidateFile(fields[3], FileKind.valueOf(fields[0].toUpperCase(Locale.ROOT)), Long.parseLong(fields[1]),
            RemovalReason.valueOf(fields[2].toUpperCase(Locale.ROOT))));
      } else if (line.startsWith("files=")) {
        count = Long.parseLong(line.substring("files=".length()));
      }
    }
    if (count != files.size()) {
      throw new IllegalArgumentException("it counts " + count + " files and lists " + files.size());
    }
    return files;
  }

  /**
   * One task attempt's record of the files it deleted, written as it goes. {@link #finish} when the
   * task's sweep returned; {@link #close} without it (a failure) leaves a part that never reads.
   * Safe to share between the threads of one task.
   */
  public static final class Part implements AutoCloseable {
    private final TableStorage storage;
    private final String path;
    /** Whether the part is written even with no file: a decide part, whose absence means "undecided". */
    private final boolean wholeWhenEmpty;
    private final CRC32C crc = new CRC32C();
    private OutputStream out;
    private long files;
    private long bytes;
    private boolean failed;
    private boolean closed;

    private Part(TableStorage storage, String path) {
      this(storage, path, false);
    }

    private Part(TableStorage storage, String path, boolean wholeWhenEmpty) {
      this.storage = storage;
      this.path = path;
      this.wholeWhenEmpty = wholeWhenEmpty;
    }

    /** A part that records nothing: for a sweep whose run does not record files. */
    public static Part none() {
      return new Part(null, null);
    }

    /**
     * Records one file as it was listed, which a resumed run decides again: one the task decided,
     * or one it kept only for its age ({@code DecideByPath#decideAndRecord}).
     */
    public void addListed(FileEntry file) {
      append("decided", LISTED, file.size(), file.type().name().toLowerCase(Locale.ROOT),
          Long.toString(file.size()), Long.toString(file.modificationTimeMillis()), file.path());
    }

    /** Records one deleted file. */
    public void add(CandidateFile file) {
      append("files", FILE, file.bytes(), file.kind().name().toLowerCase(Locale.ROOT), Long.toString(file.bytes()),
          file.reason().name().toLowerCase(Locale.ROOT), file.path());
    }

    /** One {@code key=} line of tab-separated fields, after the part's {@code record=} header when it is the first. */
    private synchronized void append(String record, String key, long fileBytes, String... fields) {
      if (storage == null) {
        return;
      }
      if (out == null) {
        writeLine(RecordText.line("record", record));
      }
      writeLine(RecordText.line(key, String.join("\t", fields)));
      files++;
      bytes += fileBytes;
    }

    /**
     * Ends the part whole: the totals, the checksum and {@code end}. A part with no file is not
     * written, except a decide part ({@link RecordedFiles#decidePart}).
     */
    public synchronized void finish() {
      if (storage != null && wholeWhenEmpty && out == null && !closed) {
        writeLine(RecordText.line("record", "decided"));
      }
      if (out == null || closed) {
        return;
      }
      writeLine(RecordText.line("files", Long.toString(files)) + RecordText.line("bytes", Long.toString(bytes)));
      if (!failed) {
        write(RecordText.trailer(crc));
      }
      close();
    }

    @Override
    public synchronized void close() {
      if (out == null || closed) {
        return;
      }
      closed = true;
      try {
        out.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("lance maintenance {}: could not close recorded files {}: {}", storage.location(), path, e.getMessage());
      }
    }

    private void writeLine(String line) {
      byte[] content = line.getBytes(StandardCharsets.UTF_8);
      crc.update(content);
      write(content);
    }

    private void write(byte[] content) {
      if (failed) {
        return;
      }
      try {
        if (out == null) {
          // One write per line would be one request per file on a local disk.
          out = new BufferedOutputStream(storage.create(path), BUFFER_BYTES);
        }
        out.write(content);
      } catch (IOException | StorageException e) {
        // Never fails the sweep: the part stays without its end, and a reader skips it.
        failed = true;
        LOG.warn("lance maintenance {}: could not record deleted files in {} (the run goes on): {}",
            storage.location(), path, e.getMessage());
      }
    }
  }

  /**
   * One whole decide part of a dead run, read back as the files it decided, in a resumed run's list
   * stage (wherever the engine runs it). Streams the part in chunks and verifies its count and
   * checksum at its end: a part garbled inside fails the run, naming it, before any delete (the
   * decision waits for every listed file).
   *
   * @param path the part, relative to the table
   */
  public record DecidedPart(String path) implements RecordedListing {
    private static final int CHUNK = 1 << 20;

    public DecidedPart {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public Iterator<FileEntry> files(TableStorage storage) {
      return new Listed(storage, path);
    }

    @Override
    public String describe() {
      return "the decided files recorded in " + path;
    }

    /** The {@code listed=} lines of a part, one chunk of it in memory at a time. */
    private static final class Listed implements Iterator<FileEntry> {
      private final TableStorage storage;
      private final String path;
      private final long length;
      private final CRC32C crc = new CRC32C();
      private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
      private byte[] chunk = new byte[0];
      private int at;
      private long offset;
      private long listed;
      private boolean checked;
      private FileEntry next;

      Listed(TableStorage storage, String path) {
        this.storage = storage;
        this.path = path;
        this.length = storage.length(path);
      }

      @Override
      public boolean hasNext() {
        while (next == null && !checked) {
          String text = nextLine();
          if (text == null) {
            throw broken("cut short (no end line)");
          }
          if (text.startsWith("checksum=")) {
            check(text.substring("checksum=".length()));
          } else {
            crc.update((text + "\n").getBytes(StandardCharsets.UTF_8));
            next = parse(text);
            if (next != null && !next.attributesRead()) {
              // A local listing of names: the attributes as they are now; a file gone counts as deleted.
              next = storage.withAttributes(next).orElse(null);
            }
          }
        }
        return next != null;
      }

      @Override
      public FileEntry next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        FileEntry file = next;
        next = null;
        return file;
      }

      private FileEntry parse(String text) {
        if (text.startsWith(LISTED + "=")) {
          String[] fields = text.substring(LISTED.length() + 1).split("\t", 4);
          listed++;
          return new FileEntry(fields[3], Long.parseLong(fields[1]), Long.parseLong(fields[2]),
              FileEntry.EntryType.valueOf(fields[0].toUpperCase(Locale.ROOT)));
        }
        if (text.startsWith("files=") && Long.parseLong(text.substring("files=".length())) != listed) {
          throw broken("it counts " + text.substring("files=".length()) + " files and lists " + listed);
        }
        return null;
      }

      private void check(String recorded) {
        if (!recorded.equals(Long.toHexString(crc.getValue()))) {
          throw broken("checksum mismatch");
        }
        if (!"end".equals(nextLine())) {
          throw broken("no end line after the checksum");
        }
        checked = true;
      }

      /** The next line without its line break; null at the end of the part. */
      private String nextLine() {
        line.reset();
        while (true) {
          if (at == chunk.length) {
            if (offset == length) {
              return line.size() == 0 ? null : line.toString(StandardCharsets.UTF_8);
            }
            int size = (int) Math.min(CHUNK, length - offset);
            chunk = storage.read(path, offset, size);
            offset += size;
            at = 0;
          }
          byte b = chunk[at++];
          if (b == '\n') {
            return line.toString(StandardCharsets.UTF_8);
          }
          line.write(b);
        }
      }

      private IllegalStateException broken(String why) {
        return new IllegalStateException(
            "Cannot resume the sweep of " + storage.location() + ": the decided files recorded in " + path + " do not read: " + why);
      }
    }
  }
}
