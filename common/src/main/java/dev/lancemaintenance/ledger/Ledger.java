package dev.lancemaintenance.ledger;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.StorageInputStream;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The maintenance ledger of one dataset (the main table or a branch) on its store: what our runs
 * learnt from the manifests, so that the next run need not read them again (docs/ledger.md).
 *
 * <p><b>Where.</b> Under {@value #DIR} in the table's root ({@code _maintenance/ledger/tree/<b>}
 * for branch {@code b}), beside the table lease: a directory Lance never lists, reads or cleans,
 * and that our own cleanup leaves alone for the same reason as the lease ({@link
 * TableLease#isLeaseFile} covers everything under {@code _maintenance/}).
 *
 * <p><b>Files.</b> Immutable segments ({@code seg-<end version>-<uuid>.seg}, {@link LedgerSegment})
 * and numbered commits ({@code commit.<generation>}, {@link LedgerCommit}) naming the segments that
 * make up the ledger. The highest commit is the ledger.
 *
 * <p><b>Atomic commit.</b> A writer first writes its segment under a fresh name, then creates the
 * next commit with {@link TableStorage#createIfAbsent}: a crash before the commit leaves a segment
 * no commit names (ignored, pruned later); a commit cut short never parses; of two writers of one
 * generation exactly one wins where the store's create-if-absent is atomic, and the commit is read
 * back so that on a store where it is not, the loser learns it lost. Runs that write take the table
 * lease first, so racing writers are an accident, not the design.
 *
 * <p><b>Never trusted blindly.</b> A read checks the commit's checksum, that it and every segment
 * carry this dataset's {@link #fingerprint}, each segment's length and checksum, and that the
 * segments fold ({@link LedgerState#apply}). Anything else makes the ledger unusable, and the run
 * goes back to the manifests; the ledger can make a run cheaper, never different.
 */
public final class Ledger {
  private static final Logger LOG = LoggerFactory.getLogger(Ledger.class);

  /** The directory of the main table's ledger. */
  public static final String DIR = TableLease.DIR + "/ledger";
  static final String COMMIT_PREFIX = "commit.";
  static final String SEGMENT_PREFIX = "seg-";
  static final String SEGMENT_SUFFIX = ".seg";
  /** Appends after which a writer folds the ledger into one segment. */
  public static final int COMPACT_AT_SEGMENTS = 16;
  /**
   * Files no commit names are removed only this long after they were written: a writer between its
   * segment and its commit must not lose the segment. Their cost is a few small files.
   */
  static final long UNNAMED_GRACE_MILLIS = 60 * 60_000L;

  private final TableStorage storage;
  private final DatasetRef dataset;
  private final String fingerprint;
  private final Clock clock;

  public Ledger(TableStorage storage, DatasetRef dataset, Clock clock) {
    this.storage = storage;
    this.dataset = dataset;
    this.fingerprint = fingerprint(storage.location().identity(), dataset);
    this.clock = clock;
  }

  /** The directory of a dataset's ledger. */
  public static String dirOf(DatasetRef dataset) {
    return TablePaths.join(DIR, dataset.dir());
  }

  /**
   * Identifies what a ledger describes: the table's canonical identity (every spelling of one table
   * gives the same) and the dataset. A ledger copied into another table, or a table copied
   * elsewhere with its ledger, does not match, and the copy starts a ledger of its own.
   */
  public static String fingerprint(String tableIdentity, DatasetRef dataset) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] digest = sha.digest((tableIdentity + "\n" + dataset.dir()).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }

  public String fingerprint() {
    return fingerprint;
  }

  public DatasetRef dataset() {
    return dataset;
  }

  /** Reads and checks the ledger; never throws for a ledger that is absent, damaged or foreign. */
  public LedgerRead read() {
    return read(LedgerDirectory.list(storage, dataset));
  }

  /** As {@link #read()}, from a listing of the ledger's directory the run took once for all its readers. */
  public LedgerRead read(LedgerDirectory listed) {
    if (!listed.dataset().equals(dataset)) {
      throw new IllegalArgumentException("a listing of " + listed.dataset() + "'s ledger, not " + dataset + "'s");
    }
    NavigableMap<Long, FileEntry> commits = listed.commits();
    if (commits.isEmpty()) {
      return LedgerRead.unusable(0, "no ledger yet");
    }
    long head = commits.lastKey();
    String commitPath = commits.get(head).path();
    try {
      // Read at the listed size and the recorded lengths: no status request before each read (a
      // round trip on an object store); a cut or grown file fails its end line or checksum.
      LedgerCommit commit = LedgerCommit.decode(commitPath, storage.readAsListed(commits.get(head)));
      if (commit.generation() != head) {
        throw new LedgerFormatException(commitPath, "records generation " + commit.generation());
      }
      if (!commit.fingerprint().equals(fingerprint) || !commit.dataset().equals(dataset)) {
        throw new LedgerFormatException(commitPath, "describes another table or dataset (fingerprint "
            + commit.fingerprint() + ", this one " + fingerprint + ")");
      }
      LedgerState state = new LedgerState(fingerprint, dataset);
      for (LedgerCommit.SegmentRef ref : commit.segments()) {
        String path = TablePaths.join(dirOf(dataset), ref.name());
        state.apply(path, decodeSegment(path, ref, commitPath, state));
      }
      if (state.endVersion() != commit.endVersion()) {
        throw new LedgerFormatException(commitPath, "records end version " + commit.endVersion()
            + " but its segments end at " + state.endVersion());
      }
      return LedgerRead.usable(commit, state);
    } catch (LedgerFormatException | StorageException e) {
      // A damaged, foreign or vanishing ledger (a concurrent compaction pruned a segment) only costs a full mark.
      LOG.warn("lance maintenance {}: ledger not used: {}", storage.location(), e.getMessage());
      return LedgerRead.unusable(head, e.getMessage());
    }
  }

  /**
   * A segment read as a stream, checked against its commit and decoded with the fold's instance of
   * each element ({@link LedgerState#decodeCanonical}): no array of the whole segment is live (136 MB
   * on {@code huge-steady}), and nothing of it reaches the fold before it was checked whole.
   */
  private LedgerSegment decodeSegment(String path, LedgerCommit.SegmentRef ref, String commitPath, LedgerState state) {
    return state.decodeCanonical(canonical -> SegmentReader.decode(storage, path, ref, commitPath, canonical, StorageInputStream.CHUNK_BYTES));
  }

  /**
   * Commits {@code segment} after what {@code previous} read: on top of its segments when it was
   * usable, or as a fresh ledger (the segment must then describe every version) when it was not.
   * Compacts when the ledger has grown to {@link #COMPACT_AT_SEGMENTS} segments.
   *
   * @param continued what {@code previous} folds to with {@code segment} applied (a fresh fold of
   *     the segment alone when {@code previous} was unusable): the state a run marked from, which
   *     is what a compaction writes. Taken from the caller, not applied here, since a run's fold
   *     is the read's own state continued in place (folding it anew would cost the whole ledger
   *     again, and applying the segment twice fails)
   * @param listedVersions the versions whose manifests are listed now, for compaction
   * @return false when another writer committed this generation first (nothing of ours is used)
   */
  public boolean append(LedgerRead previous, LedgerSegment segment, LedgerState continued, Set<Long> listedVersions) {
    requireOurs(segment);
    List<LedgerCommit.SegmentRef> segments = new ArrayList<>(previous.commit().map(LedgerCommit::segments).orElse(List.of()));
    if (segments.size() + 1 >= COMPACT_AT_SEGMENTS && previous.isUsable()) {
      return commit(previous.headGeneration() + 1, List.of(), continued.compacted(listedVersions), continued.endVersion());
    }
    return commit(previous.headGeneration() + 1, segments, segment, continued.endVersion());
  }

  /**
   * Appends the versions a run that decided from the key snapshot summarised (docs/ledger.md,
   * section 12.4), reading the head commit alone: the ledger is neither read whole nor folded,
   * except when the append reaches {@link #COMPACT_AT_SEGMENTS}, which folds it once to compact.
   *
   * <p>Exact because the segment's first version is whole ({@link LedgerSegment#firstVersionWhole}):
   * the fold continues it from its own newest references ({@link LedgerState#joined}), so what the
   * ledger says about the appended versions is what their manifests reference, whatever any reader
   * later folds before them. What the append needs from the ledger is where it ends, {@code E}:
   * <ul>
   *   <li>{@code E} below the snapshot's end {@code L}: nothing is appended. The versions in
   *       {@code (E, L]} were summarised by runs whose segments never landed (a run that died after
   *       leaving its snapshot, a commit lost to another writer), and this run has not decoded them;
   *       a ledger with a gap would be refused by the next read's identity check anyway. The
   *       ledger falls behind, which costs a later run on today's path decoding, never exactness.
   *   <li>{@code E} at or above {@code L}: the run's versions above {@code E} are appended, the
   *       first of them whole ({@link LedgerSegment#wholeAbove}). Above {@code L} when the run
   *       before left its ledger commit and died before its snapshot (the ledger is committed first
   *       for that reason, {@link KeySnapshotMark.Outcome#leaveNext}), or when another engine's run
   *       on today's path appended since.
   *   <li>No usable head commit (none, cut short, another table's): nothing; a run on today's path
   *       starts a fresh ledger, which must describe every listed version.
   * </ul>
   * A whole ledger that is damaged further back is not looked at here and still refused by the
   * next read, which checks every segment. Another writer committing the same generation makes
   * ours lose its create-if-absent, as any append.
   *
   * @param newVersions the run's new versions, all above the snapshot's end, summarised without base
   * @param snapshotEnd the end {@code L} of the snapshot the run decided from
   * @param listedVersions the versions whose manifests are listed now, for compaction
   * @return why nothing was appended, or empty when the ledger now ends at the run's newest version
   */
  public Optional<String> appendWithoutFold(LedgerSegment newVersions, long snapshotEnd, Set<Long> listedVersions) {
    LedgerDirectory listed;
    try {
      listed = LedgerDirectory.list(storage, dataset);
    } catch (StorageException e) {
      return Optional.of("its directory could not be listed: " + e.getMessage());
    }
    return appendWithoutFold(listed, newVersions, snapshotEnd, listedVersions);
  }

  /**
   * As {@link #appendWithoutFold(LedgerSegment, long, Set)}, the head commit found in a listing of
   * the ledger's directory the run took once, beside its plan ({@link LedgerDirectory}: under the
   * lease no other run commits; if one did, ours loses its create-if-absent).
   */
  public Optional<String> appendWithoutFold(LedgerDirectory listed, LedgerSegment newVersions, long snapshotEnd,
      Set<Long> listedVersions) {
    return appendWithoutFold(listed, newVersions, snapshotEnd, listedVersions, this::delete);
  }

  /**
   * As {@link #appendWithoutFold(LedgerDirectory, LedgerSegment, long, Set)}, handing what the prune
   * after the commit chose from {@code listed} (older commits, stale segments no commit names) to
   * {@code prune} instead of deleting it here: a run deletes them beside its lease's release
   * ({@link KeySnapshotMark.Outcome#leaveNext}; docs/ledger.md, section 12.4, "The prunes beside
   * the release"). Given nothing when the append commits nothing; the compaction, one append in
   * {@value #COMPACT_AT_SEGMENTS}, lists and prunes here as before.
   */
  Optional<String> appendWithoutFold(LedgerDirectory listed, LedgerSegment newVersions, long snapshotEnd,
      Set<Long> listedVersions, Consumer<List<String>> prune) {
    Optional<String> nothing = nothingToAppend(newVersions);
    return nothing.isPresent() ? nothing
        : appendWithoutFold(head(listed), newVersions, snapshotEnd, listedVersions, prune, () -> {});
  }

  /**
   * As {@link #appendWithoutFold(LedgerDirectory, LedgerSegment, long, Set, Consumer)}, from a head
   * commit read already ({@link #head}, beside the plan: {@link LedgerHead} says why that is exact),
   * telling {@code created} as soon as the store created the run's commit, before it is read back:
   * what must not precede the commit (the key snapshot, {@link KeySnapshotMark.Outcome#leaveNext})
   * may start then. Not told when the append commits nothing or loses the create.
   */
  Optional<String> appendWithoutFold(LedgerHead head, LedgerSegment newVersions, long snapshotEnd,
      Set<Long> listedVersions, Consumer<List<String>> prune, Runnable created) {
    Optional<String> nothing = nothingToAppend(newVersions);
    if (nothing.isPresent()) {
      return nothing;
    }
    long newest = newVersions.versions().get(newVersions.versions().size() - 1).version();
    if (head.problem().isPresent()) {
      return head.problem();
    }
    LedgerCommit commit = head.commit().orElseThrow();
    long end = commit.endVersion();
    if (end < snapshotEnd) {
      return Optional.of("it ends at version " + end + ", before the key snapshot's " + snapshotEnd
          + ": the versions between are summarised nowhere this run has");
    }
    if (end >= newest) {
      return Optional.of("it already ends at version " + end);
    }
    LedgerSegment segment = newVersions.wholeAbove(end);
    if (commit.segments().size() + 1 < COMPACT_AT_SEGMENTS) {
      return commit(commit.generation() + 1, commit.segments(), segment, newest, Optional.of(head.listed()), prune, created)
          ? Optional.empty() : Optional.of("another writer committed first");
    }
    // The one fold of this path, every COMPACT_AT_SEGMENTS appends: the compacted ledger is what
    // the whole ledger continued by our segment folds to (the continued fold append takes).
    LedgerRead whole = read();
    if (!whole.isUsable() || whole.headGeneration() != commit.generation()) {
      return Optional.of("its fold for the compaction is not usable: " + whole.problem().orElse("the head moved"));
    }
    LedgerState continued = whole.state().orElseThrow();
    try {
      continued.apply("this run's new versions", segment);
    } catch (LedgerFormatException e) {
      return Optional.of("our versions do not continue its fold: " + e.getMessage());
    }
    return append(whole, segment, continued, listedVersions) ? Optional.empty() : Optional.of("another writer committed first");
  }

  /** Why {@code newVersions} appends nothing whatever the ledger holds (it has no versions), or empty; throws for a segment not of this path. */
  private Optional<String> nothingToAppend(LedgerSegment newVersions) {
    requireOurs(newVersions);
    if (!newVersions.firstVersionWhole()) {
      throw new IllegalArgumentException("a segment appended without a fold has its first version whole");
    }
    return newVersions.versions().isEmpty() ? Optional.of("no new versions") : Optional.empty();
  }

  /**
   * The head commit in {@code listed}, read and checked (its generation, this table and dataset):
   * what {@link #appendWithoutFold} continues. Never throws for a head that is absent, damaged or
   * foreign; at a ranged read of the listed size, as {@link #read(LedgerDirectory)}.
   */
  LedgerHead head(LedgerDirectory listed) {
    NavigableMap<Long, FileEntry> commits = listed.commits();
    if (commits.isEmpty()) {
      return LedgerHead.unusable(listed, "no ledger yet");
    }
    long head = commits.lastKey();
    LedgerCommit commit;
    try {
      commit = LedgerCommit.decode(commits.get(head).path(), storage.readAsListed(commits.get(head)));
    } catch (LedgerFormatException | StorageException e) {
      return LedgerHead.unusable(listed, "its head commit is not usable: " + e.getMessage());
    }
    if (commit.generation() != head || !commit.fingerprint().equals(fingerprint) || !commit.dataset().equals(dataset)) {
      return LedgerHead.unusable(listed, "its head commit " + head + " describes another generation, table or dataset");
    }
    return LedgerHead.of(listed, commit);
  }

  /** Replaces the ledger by one segment holding what {@code previous} folds to, keeping what the listed versions need. */
  public boolean compact(LedgerRead previous, Set<Long> listedVersions) {
    LedgerState state = previous.state().orElseThrow(() -> new IllegalArgumentException("nothing to compact: " + previous.problem().orElse("")));
    return commit(previous.headGeneration() + 1, List.of(), state.compacted(listedVersions), state.endVersion());
  }

  /**
   * Streams {@code segment} to a file of its own: a crash or a failed write leaves a file no commit
   * names, pruned later like any other (section 2 of docs/ledger.md).
   */
  private LedgerCommit.SegmentRef writeSegment(String name, LedgerSegment segment) {
    String path = TablePaths.join(dirOf(dataset), name);
    try (OutputStream out = storage.create(path)) {
      return segment.writeTo(name, out);
    } catch (IOException e) {
      throw new StorageException("write", storage.location().resolveRedacted(path), e);
    }
  }

  private boolean commit(long generation, List<LedgerCommit.SegmentRef> base, LedgerSegment segment, long endVersion) {
    return commit(generation, base, segment, endVersion, Optional.empty(), this::delete, () -> {});
  }

  /**
   * As above; the prune takes the files to remove from {@code listed} when the run listed the
   * directory already, and hands them to {@code prune}, which deletes them now or later; tells
   * {@code created} once the store created the commit, before the read-back.
   */
  private boolean commit(long generation, List<LedgerCommit.SegmentRef> base, LedgerSegment segment, long endVersion,
      Optional<LedgerDirectory> listed, Consumer<List<String>> prune, Runnable created) {
    String name = SEGMENT_PREFIX + String.format("%019d", Math.max(0, endVersion)) + "-" + UUID.randomUUID() + SEGMENT_SUFFIX;
    List<LedgerCommit.SegmentRef> segments = new ArrayList<>(base);
    segments.add(writeSegment(name, segment));
    byte[] commit = new LedgerCommit(generation, fingerprint, dataset, endVersion, segments).encode();
    String path = commitPath(generation);
    boolean ours = storage.createIfAbsent(path, commit);
    if (ours) {
      created.run();
    }
    // Read back: where the store ignores the condition (s3proxy), the last writer wins, and this says who.
    if (!ours || !readsBack(path, commit)) {
      LOG.info("lance maintenance {}: another run committed ledger generation {} first; ours is dropped",
          storage.location(), generation);
      return false;
    }
    prune.accept(prunable(generation, segments, listed));
    return true;
  }

  /**
   * Whether the commit at {@code path} is ours, read at our length: a ranged read needs no status
   * request first (on an object store, one round trip fewer per run). Another writer's commit of
   * this generation names its own segment, whose name holds a fresh UUID, so it differs from ours
   * within our length; one shorter than ours fails the read.
   */
  private boolean readsBack(String path, byte[] commit) {
    try {
      return Arrays.equals(storage.read(path, 0, commit.length), commit);
    } catch (StorageException e) {
      if (endedEarly(e)) {
        return false;
      }
      throw e;
    }
  }

  /** Whether a ranged read failed because the file ends before the range does. */
  static boolean endedEarly(StorageException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.EOFException) {
        return true;
      }
    }
    return false;
  }

  /**
   * What the prune after commit {@code head} removes: older commits, and segments no commit names
   * that are past the grace period. From {@code listed}, a listing the run took before it
   * committed, when it has one: what it lacks is what the run wrote since, its own segment and
   * commit, which are the live ones (and a file of another writer, an accident under the lease, is
   * left for the next prune).
   */
  private List<String> prunable(long head, List<LedgerCommit.SegmentRef> live, Optional<LedgerDirectory> listed) {
    Set<String> liveNames = new HashSet<>();
    live.forEach(ref -> liveNames.add(ref.name()));
    long staleBefore = clock.millis() - UNNAMED_GRACE_MILLIS;
    List<String> old = new ArrayList<>();
    Iterator<FileEntry> files = listed.map(directory -> directory.files().iterator()).orElseGet(() -> storage.listFiles(dirOf(dataset), false));
    while (files.hasNext()) {
      FileEntry file = files.next();
      String name = Generations.lastSegment(file.path());
      OptionalLong generation = generationOf(name);
      boolean oldCommit = generation.isPresent() && generation.getAsLong() < head;
      boolean unnamed = (name.startsWith(SEGMENT_PREFIX) && !liveNames.contains(name)) || name.startsWith(".staged-");
      if (oldCommit || (unnamed && file.modificationTimeMillis() < staleBefore)) {
        old.add(file.path());
      }
    }
    return old;
  }

  /** Deletes files the ledger's directory no longer needs (old commits and segments, old key snapshots). Best effort. */
  private void delete(List<String> old) {
    deleteOld(storage, old);
  }

  /** As {@link #delete}, through {@code storage}. */
  static void deleteOld(TableStorage storage, List<String> old) {
    int batch = Math.max(1, storage.maxDeleteBatchSize());
    for (int from = 0; from < old.size(); from += batch) {
      // Harmless when it fails: old files decide nothing; the next prune tries again.
      storage.deleteBatch(old.subList(from, Math.min(old.size(), from + batch)))
          .forEach(f -> LOG.debug("lance maintenance: could not prune {}: {}", f.path(), f.reason()));
    }
  }

  private void requireOurs(LedgerSegment segment) {
    if (!segment.fingerprint().equals(fingerprint) || !segment.dataset().equals(dataset)) {
      throw new IllegalArgumentException("the segment is not of this dataset's ledger");
    }
  }

  /** A segment of this ledger whose first version opens everything it references ({@link LedgerSegment#firstVersionWhole}). */
  public LedgerSegment wholeFirstSegment(List<LedgerVersion> versions, List<LedgerSegment.Open> opens, List<LedgerSegment.Close> closes) {
    return new LedgerSegment(fingerprint, dataset, versions, opens, closes, true);
  }

  /** An empty segment of this ledger, to fill. */
  public LedgerSegment segment(List<LedgerVersion> versions, List<LedgerSegment.Open> opens, List<LedgerSegment.Close> closes) {
    return new LedgerSegment(fingerprint, dataset, versions, opens, closes);
  }

  /** The path of a dataset's ledger commit of one generation. */
  public static String commitPath(DatasetRef dataset, long generation) {
    return TablePaths.join(dirOf(dataset), Generations.fileName(COMMIT_PREFIX, generation));
  }

  private String commitPath(long generation) {
    return commitPath(dataset, generation);
  }

  private static OptionalLong generationOf(String name) {
    return Generations.of(name, COMMIT_PREFIX);
  }
}
