package dev.lancemaintenance.local;

import dev.lancemaintenance.runs.RunRecords;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableStorage;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The places where the crash matrix kills a child JVM's cleanup ({@code kill -9}): every stage
 * boundary of the local engine and two points inside a stage. Each is recognised by the request
 * the run sends to the store there; {@link FreezingStorage} stops the run at that request, the
 * test kills the process.
 */
public enum CrashPoint {
  /**
   * The run's start record goes beside its plan (RunRecorder.start), so the point is the first read
   * of the table once the start landed: the plan's, unless the start came after the plan's reads.
   * A run killed before its start landed had written and deleted nothing, and leaves no record.
   */
  AFTER_TAKING_THE_LEASE("after taking the lease and recording its start, at its next read of the table"),
  WHILE_READING_MANIFESTS("while reading manifests, at the third one"),
  BEFORE_LISTING("after marking, at the first listing of the list stage"),
  BEFORE_THE_FIRST_DELETE("after deciding, before the first delete"),
  INSIDE_THE_SWEEP("inside the sweep, after three deleted files"),
  BEFORE_THE_MANIFESTS("before the first expired manifest is deleted"),
  BEFORE_RELEASING_THE_LEASE("after the last delete, before the lease is released");

  /** How many there are, for test names (checked against {@code values()}). */
  public static final int COUNT = 7;

  private final String description;

  CrashPoint(String description) {
    this.description = description;
  }

  @Override
  public String toString() {
    return description;
  }

  /**
   * Hands a child of {@code children} its case ({@code args}, then this point), waits until its
   * run reports that it froze at this point, and kills it ({@code kill -9}); when {@code
   * anotherFollows}, the next case's child starts meanwhile.
   */
  public void killChildAt(CrashChildren children, List<String> args, boolean anotherFollows) throws Exception {
    List<String> aCase = new java.util.ArrayList<>(args);
    aCase.add(name());
    Process child = children.handCase(aCase, anotherFollows);
    try (java.io.BufferedReader out = new java.io.BufferedReader(
        new java.io.InputStreamReader(child.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.equals(FreezingStorage.FROZEN)) {
        if (line.contains(FINISHED)) {
          throw new AssertionError("the child finished without reaching " + this);
        }
      }
      if (line == null) {
        throw new AssertionError("the child ended without reaching " + this);
      }
    } finally {
      child.destroyForcibly();
      if (!child.waitFor(1, java.util.concurrent.TimeUnit.MINUTES)) {
        throw new AssertionError("the killed child is still running");
      }
    }
  }

  /** What a child prints when its run ended without freezing. */
  public static final String FINISHED = "finished without freezing";

  /** Storage that freezes the run (prints {@value #FROZEN}, then sleeps) when it reaches {@code point}. */
  public static final class FreezingStorage extends ForwardingTableStorage {
    public static final String FROZEN = "frozen";
    private static final AtomicInteger MANIFEST_READS = new AtomicInteger();
    private static final AtomicInteger DELETED = new AtomicInteger();
    private static final AtomicBoolean START_RECORDED = new AtomicBoolean();
    private final CrashPoint point;

    public FreezingStorage(TableStorage delegate, CrashPoint point) {
      super(delegate);
      this.point = point;
    }

    @Override
    public Iterator<dev.lancemaintenance.storage.FileEntry> listFiles(String dir, boolean recursive) {
      if (!TableLease.isLeaseFile(dir)) {
        freezeAfterTheStartRecord();
        if (dir.equals("_transactions")) {
          freezeAt(CrashPoint.BEFORE_LISTING);
        }
      }
      return super.listFiles(dir, recursive);
    }

    @Override
    public byte[] readFully(String path) {
      return read(path, 0, (int) length(path));
    }

    @Override
    public byte[] read(String path, long offset, int length) {
      if (!TableLease.isLeaseFile(path)) {
        freezeAfterTheStartRecord();
        if (path.endsWith(".manifest") && MANIFEST_READS.incrementAndGet() == 3) {
          freezeAt(CrashPoint.WHILE_READING_MANIFESTS);
        }
      }
      return super.read(path, offset, length);
    }

    @Override
    public List<DeleteFailure> deleteBatch(List<String> paths) {
      if (paths.stream().allMatch(TableLease::isLeaseFile)) {
        return super.deleteBatch(paths);
      }
      freezeAt(CrashPoint.BEFORE_THE_FIRST_DELETE);
      if (DELETED.get() >= 3) {
        freezeAt(CrashPoint.INSIDE_THE_SWEEP);
      }
      if (paths.stream().anyMatch(path -> path.startsWith("_versions/"))) {
        freezeAt(CrashPoint.BEFORE_THE_MANIFESTS);
      }
      List<DeleteFailure> failures = super.deleteBatch(paths);
      DELETED.addAndGet(paths.size() - failures.size());
      return failures;
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) {
      if (path.startsWith(RunRecords.DIR + "/") && path.endsWith(".start")) {
        boolean created = super.createIfAbsent(path, content);
        START_RECORDED.set(true);
        return created;
      }
      if (DELETED.get() > 0 && new String(content, java.nio.charset.StandardCharsets.UTF_8).contains("released=true")) {
        freezeAt(CrashPoint.BEFORE_RELEASING_THE_LEASE);
      }
      return super.createIfAbsent(path, content);
    }

    private void freezeAfterTheStartRecord() {
      if (START_RECORDED.get()) {
        freezeAt(CrashPoint.AFTER_TAKING_THE_LEASE);
      }
    }

    private void freezeAt(CrashPoint reached) {
      if (reached != point) {
        return;
      }
      System.out.println(FROZEN);
      System.out.flush();
      try {
        Thread.sleep(Long.MAX_VALUE);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while frozen", e);
      }
    }
  }

  /**
   * The child JVM, whose case is {@code <table> <cutoff epoch ms> <spill dir> <crash point>}; runs
   * the local engine single-threaded (so the frozen request stops the whole run) until it is killed.
   */
  static final class Child {
    public static void main(String[] ignored) {
      String[] args = CrashChildren.awaitCase().toArray(String[]::new);
      CrashPoint point = CrashPoint.valueOf(args[3]);
      dev.lancemaintenance.storage.StorageConf conf = dev.lancemaintenance.storage.StorageConf.defaults();
      new LocalCleanupAction(
              dev.lancemaintenance.storage.TableLocation.of(args[0]),
              location -> new FreezingStorage(new dev.lancemaintenance.storage.HadoopTableStorage(location, conf), point),
              java.time.Clock.systemUTC())
          .parallelism(1)
          .partitions(5)
          .sliceSize(2)
          // Every record to disk: the killed run leaves a marked spill directory for the rerun to
          // remove (one whose records fit in memory makes none), and decides a task per partition,
          // so that the rerun, deciding in one task, resumes from parts it did not group itself.
          .inMemorySpillRecords(0)
          .spillDirectory(java.nio.file.Path.of(args[2]))
          .beforeTimestamp(java.time.Instant.ofEpochMilli(Long.parseLong(args[1])))
          .execute();
      System.out.println(FINISHED);
    }
  }
}
