package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestNaming;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The key snapshot's answers against the definition, on random histories: a key is KEPT when a
 * listed version that keeps its files references it, EXPIRED when only listed versions that do not
 * keep theirs do, and has no mark when no listed version does. Each trial runs several cleanups in
 * a row, each continuing the previous one's snapshot through its new versions, with tags (islands),
 * gaps in the version numbers, restores (a key closed and opened again) and keys held by two
 * elements; the snapshot each run leaves must be byte for byte the one built from the whole ledger.
 */
class KeySnapshotTest {
  private static final String FINGERPRINT = "f1";
  private static final int KEYS = 24;

  @Test
  void everyAnswerIsTheFullMarksOnRandomHistoriesAndEachNextSnapshotIsTheOneTheLedgerGives() {
    for (long seed = 0; seed < 400; seed++) {
      new Trial(new Random(seed)).run(seed);
    }
  }

  @Test
  void aVersionKeptWithAnUncertainReferenceLeavesNoSnapshot() {
    History history = new History();
    LedgerElement uncertain = new LedgerElement("_indices/u1", FileKind.INDEX, false);
    history.add(1, Set.of(element(1, FileKind.DATA), uncertain));
    history.add(2, Set.of(element(1, FileKind.DATA)));
    assertThat(KeySnapshot.fromLedger(history.fold(), Set.of(1L, 2L))).isEmpty();
    // Only an expired version referenced it: its mark is EXPIRED either way, and no entry is made of it.
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(2L)).orElseThrow();
    assertThat(snapshot.entries()).isEqualTo(1);
  }

  @Test
  void aNewVersionWithAnUncertainReferenceCannotBeContinued() {
    History history = new History();
    history.add(1, Set.of(element(1, FileKind.DATA)));
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(1L)).orElseThrow();
    history.add(2, Set.of(element(1, FileKind.DATA), new LedgerElement("_indices/u1", FileKind.INDEX, false)));
    assertThatThrownBy(() -> snapshot.continueWith(history.changesAfter(1)))
        .isInstanceOf(KeySnapshot.NotContinuable.class).hasMessageContaining("_indices/u1");
  }

  @Test
  void changesThatDoNotContinueTheSnapshotAreRefused() {
    History history = new History();
    history.add(1, Set.of(element(1, FileKind.DATA)));
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(1L)).orElseThrow();
    LedgerSegment closesWhatIsNotOpen = new LedgerSegment(FINGERPRINT, DatasetRef.MAIN,
        List.of(History.version(2), History.version(3)), List.of(new LedgerSegment.Open(element(1, FileKind.DATA), 2)),
        List.of(new LedgerSegment.Close(element(2, FileKind.DATA), 3)));
    assertThatThrownBy(() -> snapshot.continueWith(closesWhatIsNotOpen)).isInstanceOf(KeySnapshot.NotContinuable.class);
    LedgerSegment old = new LedgerSegment(FINGERPRINT, DatasetRef.MAIN, List.of(History.version(1)), List.of(), List.of());
    assertThatThrownBy(() -> snapshot.continueWith(old)).isInstanceOf(KeySnapshot.NotContinuable.class);
    LedgerSegment foreign = new LedgerSegment("f2", DatasetRef.MAIN, List.of(History.version(2)), List.of(), List.of());
    assertThatThrownBy(() -> snapshot.continueWith(foreign)).isInstanceOf(KeySnapshot.NotContinuable.class);
  }

  @Test
  void onlyTheVeryManifestsItDescribesAtOrBelowItsEndMayBeListed() {
    History history = new History();
    for (long v = 1; v <= 4; v++) {
      history.add(v, Set.of(element(1, FileKind.DATA)));
    }
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(2L, 4L)).orElseThrow();
    assertThat(snapshot.mismatch(List.of(listed(2), listed(4), listed(5)))).isEmpty();
    // A version it describes removed (an SDK cleanup between the runs).
    assertThat(snapshot.mismatch(List.of(listed(4), listed(5)))).isPresent();
    // A version the previous run expired still there (a max_deletes cut), or one new under an old number.
    assertThat(snapshot.mismatch(List.of(listed(1), listed(2), listed(4)))).isPresent();
    assertThat(snapshot.mismatch(List.of(listed(2), listed(3), listed(4)))).isPresent();
    // A manifest replaced under its name.
    ManifestLocation touched = new ManifestLocation("_versions/4.manifest", 4, 104, 1, ManifestNaming.V1);
    assertThat(snapshot.mismatch(List.of(listed(2), touched))).isPresent();
  }

  /**
   * The kept tail and the islands come from one pass over the listed versions, which also refuses a
   * version that keeps its files but is not listed, and a retention that does not keep the newest.
   */
  @Test
  void theKeptTailStartsAtTheFirstVersionFromWhichAllKeepTheirFilesAndEveryOneOfThemIsListed() {
    History history = new History();
    for (long version = 1; version <= 5; version++) {
      history.add(version, Set.of(element((int) version, FileKind.DATA)));
    }
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(1L, 2L, 3L, 4L, 5L)).orElseThrow();
    ContinuedKeySnapshot continued = continued(snapshot, List.of());
    // 4 and 5 are the tail; 1 and 2 keep their files below it (tags): islands; 3 does not.
    assertThat(continued.islands(Set.of(1L, 2L, 4L, 5L))).containsExactly(1L, 2L);
    assertThat(continued.islands(Set.of(3L, 4L, 5L))).isEmpty();
    assertThat(continued.islands(Set.of(1L, 2L, 3L, 4L, 5L))).isEmpty();
    KeySnapshotAnswers answers = continued.answers(Set.of(2L, 5L), Map.of(2L, Set.of(key(2))));
    assertThat(answers.markOf(key(2))).contains(MarkState.KEPT);
    assertThat(answers.markOf(key(4))).contains(MarkState.EXPIRED);
    assertThat(answers.markOf(key(5))).contains(MarkState.KEPT);
    assertThatThrownBy(() -> continued.islands(Set.of(4L, 5L, 7L)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not listed");
    assertThatThrownBy(() -> continued.answers(Set.of(0L, 5L), Map.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not listed");
    assertThatThrownBy(() -> continued.islands(Set.of(1L, 4L)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("newest listed version");
  }

  @Test
  void theGateCountsAnEntryOnceHoweverManyListedNamesShareItsKey() {
    History history = new History();
    history.add(1, Set.of(element(1, FileKind.INDEX), element(2, FileKind.DATA)));
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(1L)).orElseThrow();
    KeySnapshotAnswers answers = continued(snapshot, List.of()).answers(Set.of(1L), Map.of());
    KeySnapshotAnswers.Listing listing = answers.listing();
    listing.markOfListed(key(1));
    listing.markOfListed(key(1));
    assertThat(answers.everyKeptKeyListed()).isFalse();
    listing.markOfListed(key(2));
    assertThat(answers.everyKeptKeyListed()).isTrue();
    assertThat(answers.keptEntries()).isEqualTo(2);
  }

  /**
   * Listings on several threads, each meeting every key of its share: the gate sees every bit they
   * set, and a key no listing met is the one it names as missing.
   */
  @Test
  void listingsOnSeveralThreadsAllCountForTheGate() throws Exception {
    History history = new History();
    Set<LedgerElement> elements = new HashSet<>();
    for (int index = 0; index < 5_000; index++) {
      elements.add(element(index, FileKind.DATA));
    }
    history.add(1, elements);
    KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), Set.of(1L)).orElseThrow();
    KeySnapshotAnswers answers = continued(snapshot, List.of()).answers(Set.of(1L), Map.of());
    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Boolean>> tasks = new ArrayList<>();
      for (int thread = 0; thread < threads; thread++) {
        int share = thread;
        tasks.add(pool.submit(() -> {
          KeySnapshotAnswers.Listing listing = answers.listing();
          boolean allKept = true;
          for (int index = share; index < 5_000; index += threads) {
            if (index != 4_321) {
              allKept &= listing.keptListed(key(index));
            }
          }
          return allKept;
        }));
      }
      for (Future<Boolean> task : tasks) {
        assertThat(task.get()).isTrue();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(answers.keptEntries()).isEqualTo(5_000);
    assertThat(answers.keptEntriesListed()).isEqualTo(4_999);
    assertThat(answers.everyKeptKeyListed()).isFalse();
    assertThat(answers.keptAndUnlisted(key(4_321))).isTrue();
    assertThat(answers.keptAndUnlisted(key(4_322))).isFalse();
    assertThat(answers.keptAndUnlisted(key(5_001))).isFalse(); // no entry
    answers.listing().keptListed(key(4_321));
    assertThat(answers.everyKeptKeyListed()).isTrue();
  }

  private static ContinuedKeySnapshot continued(KeySnapshot snapshot, List<LedgerVersion> none) {
    try {
      return snapshot.continueWith(new LedgerSegment(FINGERPRINT, DatasetRef.MAIN, none, List.of(), List.of()));
    } catch (KeySnapshot.NotContinuable e) {
      throw new AssertionError(e);
    }
  }

  static ManifestLocation listed(long v) {
    LedgerVersion version = History.version(v);
    return new ManifestLocation(version.manifestPath(), v, version.size(), version.modificationTimeMillis(), ManifestNaming.V1);
  }

  static String key(int index) {
    return "data/k" + index + ".lance";
  }

  static LedgerElement element(int index, FileKind kind) {
    return new LedgerElement(key(index), kind, true);
  }

  /** Every version ever committed and what it references, as the ledger would fold them. */
  static final class History {
    final NavigableMap<Long, Set<LedgerElement>> references = new TreeMap<>();
    private final String fingerprint;

    History() {
      this(FINGERPRINT);
    }

    History(String fingerprint) {
      this.fingerprint = fingerprint;
    }

    static LedgerVersion version(long v) {
      return new LedgerVersion(v, "_versions/" + v + ".manifest", 100 + v, 1_000 * v, 7_000_000L * v);
    }

    void add(long v, Set<LedgerElement> elements) {
      references.put(v, Set.copyOf(elements));
    }

    /** The ledger of every version (as a ledger that summarised each): opens and closes between neighbours. */
    LedgerState fold() {
      LedgerState state = new LedgerState(fingerprint, DatasetRef.MAIN);
      state.apply("history", segment(references.firstKey() - 1));
      return state;
    }

    /** The versions after {@code after}, summarised as the ledger's first run: the first opens all it references. */
    LedgerSegment changesAfter(long after) {
      return segment(after);
    }

    private LedgerSegment segment(long after) {
      Set<LedgerElement> before = Set.of();
      List<LedgerVersion> versions = new ArrayList<>();
      List<LedgerSegment.Open> opens = new ArrayList<>();
      List<LedgerSegment.Close> closes = new ArrayList<>();
      for (Map.Entry<Long, Set<LedgerElement>> next : references.tailMap(after, false).entrySet()) {
        long v = next.getKey();
        versions.add(version(v));
        for (LedgerElement element : next.getValue()) {
          if (!before.contains(element)) {
            opens.add(new LedgerSegment.Open(element, v));
          }
        }
        for (LedgerElement element : before) {
          if (!next.getValue().contains(element)) {
            closes.add(new LedgerSegment.Close(element, v));
          }
        }
        before = next.getValue();
      }
      return new LedgerSegment(fingerprint, DatasetRef.MAIN, versions, opens, closes);
    }
  }

  /** A few cleanups in a row over one random history. */
  private static final class Trial {
    private final Random random;
    private final History history = new History();
    private Set<LedgerElement> current = new HashSet<>();
    private long latest;

    Trial(Random random) {
      this.random = random;
    }

    void run(long seed) {
      commit(1 + random.nextInt(8));
      Set<Long> listed = new TreeSet<>(history.references.keySet());
      Set<Long> firstKept = retention(listed);
      KeySnapshot snapshot = KeySnapshot.fromLedger(history.fold(), firstKept).orElseThrow();
      listed = firstKept; // the previous run removed what it expired
      for (int run = 0; run < 4; run++) {
        long end = latest;
        commit(random.nextInt(5));
        Set<Long> nowListed = new TreeSet<>(listed);
        nowListed.addAll(history.references.tailMap(end, false).keySet());
        ContinuedKeySnapshot continued;
        try {
          continued = snapshot.continueWith(history.changesAfter(end));
        } catch (KeySnapshot.NotContinuable e) {
          throw new AssertionError("seed " + seed, e);
        }
        assertThat(continued.listedVersions()).as("seed %d", seed).containsExactlyElementsOf(nowListed);
        Set<Long> keepFiles = retention(nowListed);
        Map<Long, Set<String>> islandReferences = new HashMap<>();
        for (long island : continued.islands(keepFiles)) {
          islandReferences.put(island, keysOf(history.references.get(island)));
        }
        KeySnapshotAnswers answers = continued.answers(keepFiles, islandReferences);
        Set<String> kept = new HashSet<>();
        for (int index = 0; index <= KEYS; index++) {
          String key = key(index);
          Optional<MarkState> expected = fullMark(key, nowListed, keepFiles);
          assertThat(answers.markOf(key)).as("seed %d run %d key %s", seed, run, key).isEqualTo(expected);
          expected.filter(mark -> mark == MarkState.KEPT).ifPresent(any -> kept.add(key));
        }
        // The gate: a listing that misses one kept key fails it; one that holds them all passes.
        List<String> keptKeys = new ArrayList<>(kept);
        KeySnapshotAnswers.Listing listing = answers.listing();
        keptKeys.stream().skip(1).forEach(listing::markOfListed);
        listing.markOfListed(key(KEYS + 1)); // a name no version references
        assertThat(answers.everyKeptKeyListed()).as("seed %d", seed).isEqualTo(keptKeys.isEmpty());
        keptKeys.stream().limit(1).forEach(listing::markOfListed);
        assertThat(answers.everyKeptKeyListed()).as("seed %d", seed).isTrue();
        assertThat(answers.keptEntries()).isEqualTo(kept.size());
        // A listing's lookups answer as markOf does (and, every kept key met, leave the gate passed).
        for (int index = 0; index <= KEYS + 1; index++) {
          assertThat(listing.keptListed(key(index))).as("seed %d key %d", seed, index).isEqualTo(kept.contains(key(index)));
        }
        assertThat(answers.everyKeptKeyListed()).isTrue();

        KeySnapshot next = answers.next();
        KeySnapshot fromLedger = KeySnapshot.fromLedger(history.fold(), keepFiles).orElseThrow();
        assertThat(KeySnapshotFile.encode(next)).as("seed %d run %d", seed, run).isEqualTo(KeySnapshotFile.encode(fromLedger));
        snapshot = next;
        listed = keepFiles;
      }
    }

    /** Commits {@code count} versions, each changing a few elements, sometimes after a gap in the numbers. */
    private void commit(int count) {
      for (int i = 0; i < count; i++) {
        latest += random.nextInt(4) == 0 ? 2 : 1;
        Set<LedgerElement> next = new HashSet<>(current);
        for (int change = random.nextInt(4); change >= 0; change--) {
          LedgerElement element = element(random.nextInt(KEYS), random.nextInt(5) == 0 ? FileKind.INDEX : FileKind.DATA);
          if (!next.remove(element)) {
            next.add(element);
          }
        }
        if (random.nextInt(6) == 0 && !history.references.isEmpty()) {
          // A Restore: an old version's references come back whole.
          List<Long> old = new ArrayList<>(history.references.keySet());
          next = new HashSet<>(history.references.get(old.get(random.nextInt(old.size()))));
        }
        current = next;
        history.add(latest, current);
      }
    }

    /** A random retention: the newest always, a tail, and a few tagged versions below it. */
    private Set<Long> retention(Set<Long> listed) {
      List<Long> versions = new ArrayList<>(listed);
      int tail = 1 + random.nextInt(versions.size());
      Set<Long> kept = new TreeSet<>(versions.subList(versions.size() - tail, versions.size()));
      for (Long version : versions) {
        if (random.nextInt(5) == 0) {
          kept.add(version);
        }
      }
      return kept;
    }

    private Optional<MarkState> fullMark(String key, Set<Long> listed, Set<Long> keepFiles) {
      Optional<MarkState> mark = Optional.empty();
      for (long version : listed) {
        if (keysOf(history.references.get(version)).contains(key)) {
          MarkState state = keepFiles.contains(version) ? MarkState.KEPT : MarkState.EXPIRED;
          mark = Optional.of(mark.map(state::merge).orElse(state));
        }
      }
      return mark;
    }

    private static Set<String> keysOf(Set<LedgerElement> elements) {
      Set<String> keys = new HashSet<>();
      elements.forEach(element -> keys.add(element.key()));
      return keys;
    }
  }
}
