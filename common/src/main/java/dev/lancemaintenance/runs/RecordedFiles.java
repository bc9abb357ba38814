package dev.lancemaintenance.runs;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableStorage;
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
    private final CRC32C crc = new CRC32C();
    private OutputStream out;
    private long files;
    private long bytes;
    private boolean failed;
    private boolean closed;

    private Part(TableStorage storage, String path) {
      this.storage = storage;
      this.path = path;
    }

    /** A part that records nothing: for a sweep whose run does not record files. */
    public static Part none() {
      return new Part(null, null);
    }

    /** Records one deleted file. */
    public synchronized void add(CandidateFile file) {
      if (storage == null) {
        return;
      }
      if (out == null) {
        writeLine(RecordText.line("record", "files"));
      }
      writeLine(RecordText.line(FILE, String.join("\t", file.kind().name().toLowerCase(Locale.ROOT),
          Long.toString(file.bytes()), file.reason().name().toLowerCase(Locale.ROOT), file.path())));
      files++;
      bytes += file.bytes();
    }

    /** Ends the part whole: the totals, the checksum and {@code end}. A part with no file is not written. */
    public synchronized void finish() {
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
          out = storage.create(path);
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
}
