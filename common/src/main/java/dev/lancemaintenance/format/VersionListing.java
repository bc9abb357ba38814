package dev.lancemaintenance.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.DaemonThreads;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.Consumer;

/**
 * Lists the committed versions of one dataset: the main table or a branch ({@link DatasetRef}). Reads names only, no manifest bodies, so planning stays one listing.
 *
 * <p>Skipped, as Lance's own listing skips them: {@code latest_version_hint.json}, detached
 * manifests ({@code d….manifest}, written outside the version history), staging files of commits in
 * flight ({@code {name}-{uuid}}) and old {@code .tmp*} staging names. A {@code *.manifest} whose
 * number does not parse is not skipped: it raises {@link CorruptTableException}, because a version
 * we cannot place could be the one that keeps files alive.
 */
public final class VersionListing {
  static final String VERSIONS_DIR = "_versions";
  static final String HINT_FILE = "latest_version_hint.json";

  private VersionListing() {}

  /** Every committed version of {@code dataset}, ordered by version (unsigned), then path. */
  public static List<ManifestLocation> list(TableStorage storage, DatasetRef dataset) {
    String dir = versionsDir(storage, dataset);
    List<ManifestLocation> locations = new ArrayList<>();
    for (Iterator<FileEntry> it = storage.listFiles(dir, false); it.hasNext(); ) {
      addIfCommitted(storage, it.next(), locations);
    }
    return sortedByVersion(locations);
  }

  /**
   * Every file at or below {@code dataset}'s {@code _versions/}, as a walk of the directory gives
   * them, with its committed versions among them (the files directly in it that {@link #list}
   * keeps): one listing for a caller that needs both, the planner, whose list stage would otherwise
   * walk {@code _versions/} again for its candidates (docs/cleanup-semantics.md, "The plan's
   * listing of {@code _versions/} is the list stage's").
   */
  public static Directory listDirectory(TableStorage storage, DatasetRef dataset) {
    return listDirectory(storage, dataset, entry -> {});
  }

  /**
   * As {@link #listDirectory(TableStorage, DatasetRef)}, handing each entry to {@code seen} as the
   * walk gives it, before the walk goes on: for reads that need a listed name and length and may
   * start before the listing ends ({@link ManifestsReadEarly#listed}). An entry whose attributes the
   * walk left unread is handed over unread.
   */
  public static Directory listDirectory(TableStorage storage, DatasetRef dataset, Consumer<FileEntry> seen) {
    String dir = versionsDir(storage, dataset);
    Iterator<FileEntry> walk = storage.listFilesDeferringAttributes(dir, true);
    Iterator<FileEntry> watched = new Iterator<>() {
      @Override
      public boolean hasNext() {
        return walk.hasNext();
      }

      @Override
      public FileEntry next() {
        FileEntry entry = walk.next();
        seen.accept(entry);
        return entry;
      }
    };
    List<FileEntry> files = withAttributes(storage, watched);
    List<ManifestLocation> locations = new ArrayList<>();
    for (FileEntry entry : files) {
      if (TablePaths.parent(entry.path()).equals(dir)) {
        addIfCommitted(storage, entry, locations);
      }
    }
    return new Directory(sortedByVersion(locations), files);
  }

  /** Fewer names than this and their attributes are read on the calling thread alone. */
  static final int READ_BESIDE_FROM = 256;
  /** Listed names handed to the reader beside the walk at once. */
  static final int CHUNK = 1_024;

  /**
   * The listed entries with their attributes, those the listing left unread (a local directory with
   * no subdirectory gives names alone) read here and beside: on a local disk the {@code stat} per
   * manifest was most of the plan's listing (2,020 of them, 4-6 ms of a daily run's row on {@code
   * steady}: docs/benchmarks.md, "Where the snapshot path's daily run goes"), and the plan's other
   * work beside it (the refs, the hint, the ledger read ahead) leaves the second core idle for most
   * of it. The names go to the reader beside in chunks as the walk gives them, so that its {@code
   * stat}s start with the walk instead of after it (the walk of {@code _versions/} on {@code
   * huge-steady}, 101,013 names, was a quarter of the listing's time with the second core idle:
   * docs/benchmarks.md, "{@code huge-steady}'s daily run on local disk"); once the walk ended, this thread reads
   * the chunks left, and the two share them. The same entries as a listing that reads every one
   * ({@link TableStorage#listFiles}): the same {@code stat}, not following links, of the same names,
   * each a moment later than the walk would have read it, as the walk reads each a moment after the
   * directory gave its name; a file gone in between is left out, as the walk leaves it out ({@link
   * TableStorage#withAttributes}), and so is a subdirectory made after the directory was found to
   * have none, with its files, as by a walk a moment earlier (docs/cleanup-semantics.md, section
   * 20). The store's order is kept (each chunk's entries take its place). An object store's listing
   * carries the attributes: nothing is read then.
   */
  private static List<FileEntry> withAttributes(TableStorage storage, Iterator<FileEntry> listed) {
    List<FileEntry> head = new ArrayList<>();
    while (listed.hasNext() && head.size() < READ_BESIDE_FROM) {
      head.add(listed.next());
    }
    if (!listed.hasNext() || head.stream().allMatch(FileEntry::attributesRead)) {
      List<FileEntry> entries = read(storage, head);
      listed.forEachRemaining(entry -> storage.withAttributes(entry).ifPresent(entries::add));
      return entries;
    }
    return new ChunkedReads(storage).readBeside(head, listed);
  }

  /** Chunks of listed names whose attributes two threads read, the walk's thread once it ended. */
  private static final class ChunkedReads {
    private static final int NO_MORE = -1;
    private final TableStorage storage;
    private final List<List<FileEntry>> chunks = new CopyOnWriteArrayList<>();
    private final Map<Integer, List<FileEntry>> read = new ConcurrentHashMap<>();
    private final BlockingQueue<Integer> toRead = new LinkedBlockingQueue<>();

    ChunkedReads(TableStorage storage) {
      this.storage = storage;
    }

    List<FileEntry> readBeside(List<FileEntry> head, Iterator<FileEntry> listed) {
      CompletableFuture<Void> beside = DaemonThreads.beside("lance-plan-attributes", () -> {
        readUntilNoMore(true);
        return null;
      });
      try {
        try {
          List<FileEntry> chunk = head;
          while (listed.hasNext()) {
            if (chunk.size() == CHUNK) {
              hand(chunk);
              chunk = new ArrayList<>(CHUNK);
            }
            chunk.add(listed.next());
          }
          hand(chunk);
        } finally {
          toRead.add(NO_MORE); // the reader beside ends even when the walk failed
        }
        readUntilNoMore(false);
      } finally {
        beside.exceptionally(failed -> null).join(); // never left running; its own failure is thrown below
      }
      DaemonThreads.join(beside);
      List<FileEntry> entries = new ArrayList<>();
      for (int chunk = 0; chunk < chunks.size(); chunk++) {
        entries.addAll(read.get(chunk));
      }
      return entries;
    }

    private void hand(List<FileEntry> chunk) {
      chunks.add(chunk);
      toRead.add(chunks.size() - 1);
    }

    /** Reads the chunks handed over until the walk ended and none is left; {@code waiting}: for chunks still to come. */
    private void readUntilNoMore(boolean waiting) {
      while (true) {
        Integer chunk = waiting ? take() : toRead.poll();
        if (chunk == null || chunk == NO_MORE) {
          if (chunk != null) {
            toRead.add(NO_MORE); // for the other reader
          }
          return;
        }
        read.put(chunk, read(storage, chunks.get(chunk)));
      }
    }

    private Integer take() {
      try {
        return toRead.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while reading the listing's attributes", e);
      }
    }
  }

  private static List<FileEntry> read(TableStorage storage, List<FileEntry> entries) {
    List<FileEntry> read = new ArrayList<>(entries.size());
    for (FileEntry entry : entries) {
      storage.withAttributes(entry).ifPresent(read::add);
    }
    return read;
  }

  /**
   * A dataset's {@code _versions/} as one listing saw it.
   *
   * @param manifests its committed versions, as {@link #list} gives them
   * @param files every file at or below it, in the store's order
   */
  public record Directory(List<ManifestLocation> manifests, List<FileEntry> files) {
    public Directory {
      manifests = List.copyOf(manifests);
      files = List.copyOf(files);
    }
  }

  private static void addIfCommitted(TableStorage storage, FileEntry entry, List<ManifestLocation> locations) {
    String name = TablePaths.fileName(entry.path());
    if (isCommittedManifestName(name)) {
      locations.add(locate(storage, entry, name));
    }
  }

  private static List<ManifestLocation> sortedByVersion(List<ManifestLocation> locations) {
    // Compared as primitives: comparing(version, Long::compareUnsigned) boxed both versions of every
    // comparison (a directory lists in no order, so 2,020 manifests take ~20,000 comparisons).
    locations.sort(BY_VERSION_THEN_PATH);
    return locations;
  }

  /** Unsigned version order, then path: the same order as comparing the boxed versions unsigned. */
  private static final Comparator<ManifestLocation> BY_VERSION_THEN_PATH = (a, b) -> {
    int byVersion = Long.compareUnsigned(a.version(), b.version());
    return byVersion != 0 ? byVersion : a.path().compareTo(b.path());
  };

  /** The newest committed version of {@code dataset}; empty when it has none. */
  public static Optional<ManifestLocation> latest(TableStorage storage, DatasetRef dataset) {
    List<ManifestLocation> all = list(storage, dataset);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /**
   * The version recorded in {@code _versions/latest_version_hint.json}; empty when the file is
   * absent. Lance writes the hint best-effort after a commit and checks it by probing, so it may lag
   * behind the listing: use it to start a search, never to decide what to keep. A hint a writer is rewriting is read again until whole ({@link RewrittenFile}).
   */
  public static OptionalLong readLatestVersionHint(TableStorage storage, DatasetRef dataset) {
    String path = TablePaths.join(versionsDir(storage, dataset), HINT_FILE);
    return RewrittenFile.read(path, () -> parseHint(storage, path));
  }

  private static OptionalLong parseHint(TableStorage storage, String path) {
    byte[] content;
    try {
      content = storage.readFully(path);
    } catch (StorageException e) {
      if (e.getCause() instanceof FileNotFoundException) {
        return OptionalLong.empty();
      }
      throw e;
    }
    String table = storage.location().toString();
    try {
      JsonNode version = Mapper.JSON.readTree(content).path("version");
      if (!version.canConvertToExactIntegral() || version.asLong() < 0) {
        throw new CorruptTableException(table, path, "no non-negative integer \"version\" in the hint");
      }
      return OptionalLong.of(version.asLong());
    } catch (IOException e) {
      throw new CorruptTableException(table, path, "version hint is not JSON", e);
    }
  }

  /** Where Lance keeps the latest-version hint of {@code dataset}, table-relative. */
  public static String latestVersionHintPath(DatasetRef dataset) {
    return dataset.resolve(TablePaths.join(VERSIONS_DIR, HINT_FILE));
  }

  private static String versionsDir(TableStorage storage, DatasetRef dataset) {
    if (!dataset.isMain()) {
      // A branch name comes from the table's refs: it must not lead the listing out of tree/.
      TablePaths.checkRelative(storage.location().toString(), dataset.dir());
    }
    return dataset.resolve(VERSIONS_DIR);
  }

  private static boolean isCommittedManifestName(String name) {
    // Staging names end in "-{uuid}" after the suffix, so they fail the suffix test.
    return name.endsWith(ManifestNaming.SUFFIX) && !name.startsWith(".tmp") && !name.startsWith("d");
  }

  private static ManifestLocation locate(TableStorage storage, FileEntry entry, String name) {
    return located(entry, name).orElseThrow(() -> new CorruptTableException(storage.location().toString(),
        entry.path(), "manifest file name is not an unsigned 64-bit version number"));
  }

  /**
   * The location of {@code entry} when it is a committed manifest whose name records a version, as
   * the listing locates it; empty for any other entry (which the listing itself skips, or refuses).
   */
  static Optional<ManifestLocation> committedManifest(FileEntry entry) {
    String name = TablePaths.fileName(entry.path());
    return isCommittedManifestName(name) ? located(entry, name) : Optional.empty();
  }

  private static Optional<ManifestLocation> located(FileEntry entry, String name) {
    ManifestNaming naming = ManifestNaming.of(name);
    OptionalLong version = naming.parseVersion(name);
    return version.isEmpty() ? Optional.empty() : Optional.of(new ManifestLocation(
        entry.path(), version.getAsLong(), entry.size(), entry.modificationTimeMillis(), naming));
  }

  /**
   * Made on first use: a cold command-line run on a table without refs (or hint) never pays for
   * Jackson's databind, some 300 classes.
   */
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }
}
