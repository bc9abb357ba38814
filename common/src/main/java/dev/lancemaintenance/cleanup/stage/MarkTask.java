package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.storage.TableStorage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One task of stage 2, mark, as every engine ships it: a slice of manifests to decode ({@link
 * DecodeSlice}), marks the driver derived from the maintenance ledger without reading a manifest
 * ({@link Derived}), or expiry records to read ({@code ledger.ExpiryRecordMarks}), handed on so
 * that the later stages see one stream of marks whatever produced them. Not sealed only because
 * the expiry records' task lives with their format in {@code ledger}, which builds on this package.
 */
public interface MarkTask extends Serializable {
  /** What the task marks: its marks, the manifests of expired versions and its summary. */
  MarkResult mark(TableStorage storage, RetentionFacts facts);

  /** Manifests this task decodes (for job descriptions): 0 for derived marks. */
  int manifestsToDecode();

  /** Decodes the manifests of one slice ({@link MarkManifests}). */
  record DecodeSlice(ManifestSlice slice) implements MarkTask {
    public DecodeSlice {
      Objects.requireNonNull(slice, "slice");
    }

    @Override
    public MarkResult mark(TableStorage storage, RetentionFacts facts) {
      return new MarkManifests(storage, facts).mark(slice);
    }

    @Override
    public int manifestsToDecode() {
      return slice.manifests().size();
    }
  }

  /** Marks known before the task runs; nothing is read. */
  record Derived(List<ReferenceMark> marks, List<CandidateFile> expiredManifests, MarkSummary summary) implements MarkTask {
    public Derived {
      marks = List.copyOf(marks);
      expiredManifests = List.copyOf(expiredManifests);
      Objects.requireNonNull(summary, "summary");
    }

    /** A task's result as a record that ships (for engines that collect results to the driver). */
    public static Derived of(MarkResult result) {
      return new Derived(new ArrayList<>(result.marks()), result.expiredManifests(), result.summary());
    }

    public MarkResult result() {
      return new MarkResult(marks, expiredManifests, summary);
    }

    @Override
    public MarkResult mark(TableStorage storage, RetentionFacts facts) {
      return result();
    }

    @Override
    public int manifestsToDecode() {
      return 0;
    }
  }

  /** One decode task per slice. */
  static List<MarkTask> decode(List<ManifestSlice> slices) {
    return slices.stream().<MarkTask>map(DecodeSlice::new).toList();
  }

  /**
   * {@code result} as tasks of at most {@code marksPerTask} marks each (at least one task), so that
   * no task, and no shipped record, carries all of them; the summary and the expired manifests
   * travel once, with the first.
   */
  static List<MarkTask> derived(MarkResult result, int marksPerTask) {
    List<ReferenceMark> marks = new ArrayList<>(result.marks());
    List<MarkTask> tasks = new ArrayList<>();
    tasks.add(new Derived(marks.subList(0, Math.min(marksPerTask, marks.size())), result.expiredManifests(), result.summary()));
    for (int from = marksPerTask; from < marks.size(); from += marksPerTask) {
      tasks.add(new Derived(marks.subList(from, Math.min(marks.size(), from + marksPerTask)), List.of(), MarkSummary.EMPTY));
    }
    return tasks;
  }
}
