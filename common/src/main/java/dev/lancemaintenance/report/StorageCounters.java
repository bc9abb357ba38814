package dev.lancemaintenance.report;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The report's counters: files and bytes keyed by kind x category, by window, by the age of
 * unreferenced files, by tag or branch, and by the version whose removal frees them. They grow with
 * kinds, windows, tags, branches and versions, never with files. An accumulator: a task adds its
 * files to its own instance, engines merge instances ({@link #merge}) as they reduce.
 */
public final class StorageCounters implements Serializable {
  private final TreeMap<KindCategory, FilesBytes> byKind = new TreeMap<>();
  private final ArrayList<FilesBytes> freedByWindow = new ArrayList<>();
  private final EnumMap<AgeBucket, FilesBytes> unverifiedByAge = new EnumMap<>(AgeBucket.class);
  private final TreeMap<String, FilesBytes> pinnedBy = new TreeMap<>();
  private final TreeMap<Long, FilesBytes> freedWithVersion = new TreeMap<>();

  /** Empty counters for {@code windows} windows. */
  public StorageCounters(int windows) {
    for (int i = 0; i < windows; i++) {
      freedByWindow.add(FilesBytes.ZERO);
    }
  }

  void addFile(KindCategory bucket, long size) {
    byKind.merge(bucket, new FilesBytes(1, size), FilesBytes::plus);
  }

  void addFreed(int window, long size) {
    freedByWindow.set(window, freedByWindow.get(window).plusFile(size));
  }

  void addUnverified(AgeBucket age, long size) {
    unverifiedByAge.merge(age, new FilesBytes(1, size), FilesBytes::plus);
  }

  void addPinned(String pin, long size) {
    pinnedBy.merge(pin, new FilesBytes(1, size), FilesBytes::plus);
  }

  void addFreedWithVersion(long version, long size) {
    freedWithVersion.merge(version, new FilesBytes(1, size), FilesBytes::plus);
  }

  /** Adds {@code other} into these counters and returns them. */
  public StorageCounters merge(StorageCounters other) {
    if (other.freedByWindow.size() != freedByWindow.size()) {
      throw new IllegalArgumentException("counters of " + other.freedByWindow.size() + " windows, not " + freedByWindow.size());
    }
    other.byKind.forEach((key, value) -> byKind.merge(key, value, FilesBytes::plus));
    for (int i = 0; i < freedByWindow.size(); i++) {
      freedByWindow.set(i, freedByWindow.get(i).plus(other.freedByWindow.get(i)));
    }
    other.unverifiedByAge.forEach((key, value) -> unverifiedByAge.merge(key, value, FilesBytes::plus));
    other.pinnedBy.forEach((key, value) -> pinnedBy.merge(key, value, FilesBytes::plus));
    other.freedWithVersion.forEach((key, value) -> freedWithVersion.merge(key, value, FilesBytes::plus));
    return this;
  }

  /** Files and bytes per kind x category. */
  public SortedMap<KindCategory, FilesBytes> byKind() {
    return Collections.unmodifiableSortedMap(byKind);
  }

  /** What a cleanup with each window would free, in the order of the windows. */
  public List<FilesBytes> freedByWindow() {
    return List.copyOf(freedByWindow);
  }

  /** Listed files no version references, by age (whatever the policy does with them). */
  public Map<AgeBucket, FilesBytes> unverifiedByAge() {
    return Collections.unmodifiableMap(unverifiedByAge);
  }

  /** Files a tag ({@code tag:<name>}) or branch ({@code branch:<name>}) references. */
  public SortedMap<String, FilesBytes> pinnedBy() {
    return Collections.unmodifiableSortedMap(pinnedBy);
  }

  /**
   * Files whose newest referencing version (by timestamp) is this one and that nothing pins: what
   * goes once the window passes that version.
   */
  public SortedMap<Long, FilesBytes> freedWithVersion() {
    return Collections.unmodifiableSortedMap(freedWithVersion);
  }
}
