package dev.lancemaintenance.spark;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.TaskCompletionListener;
import scala.Tuple2;

/**
 * Stage {@code decide} on an executor: one partition of the co-group of listed files and marks by reference
 * key, decided by {@link DecideByPath}. Emits the files that go, as the keys stream by, and last
 * the partition's {@link UnlistedReferences}: keys a retained version needs that no listed file
 * carries, which the driver reduces and refuses on before any delete. When the run records its
 * decision, each task writes the files it decided, as listed, to its part ({@link
 * RecordedFiles#decidePart}, by partition and attempt), whole once its partition is decided.
 */
final class DecideFiles
    implements FlatMapFunction<Iterator<Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<MarkState>>>>, DecideFiles.Decision> {
  private static final long serialVersionUID = 1L;

  private final DecisionContext context;
  private final Broadcast<TableStorageFactory> storageFactory;
  private final TableLocation table;
  /** Where each task records the files it decided ({@code part-decide-<partition>-<attempt>}); null for none. */
  private final RecordedFiles decidedFiles;

  DecideFiles(
      DecisionContext context, Broadcast<TableStorageFactory> storageFactory, TableLocation table, RecordedFiles decidedFiles) {
    this.context = context;
    this.storageFactory = storageFactory;
    this.table = table;
    this.decidedFiles = decidedFiles;
  }

  /** This task's decided part, closed (without its end, should the task fail) with the task. */
  private RecordedFiles.Part decidedPart() {
    if (decidedFiles == null) {
      return RecordedFiles.Part.none();
    }
    TaskContext task = TaskContext.get();
    TableStorage storage = storageFactory.value().open(table);
    RecordedFiles.Part record = decidedFiles.decidePart(storage, task.partitionId(), task.attemptNumber());
    task.addTaskCompletionListener((TaskCompletionListener) done -> {
      record.close();
      storage.close();
    });
    return record;
  }

  /** A listed file under its reference key in the run's dataset, ready to be co-grouped with the marks. */
  static Tuple2<String, FileEntry> keyed(DecisionContext context, FileEntry file) {
    return new Tuple2<>(context.keyOf(file.path()), file);
  }

  /**
   * What the decision emits: a file that goes, or a partition's unlisted references (exactly one).
   */
  record Decision(CandidateFile candidate, UnlistedReferences unlisted) implements Serializable {
    Decision {
      if ((candidate == null) == (unlisted == null)) {
        throw new IllegalArgumentException("A decision is exactly one of a candidate or unlisted references");
      }
    }

    boolean isCandidate() {
      return candidate != null;
    }
  }

  @Override
  public Iterator<Decision> call(Iterator<Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<MarkState>>>> keys) {
    DecideByPath decide = new DecideByPath(context);
    RecordedFiles.Part record = decidedPart();
    return new Iterator<>() {
      private UnlistedReferences unlisted = UnlistedReferences.NONE;
      private final List<Decision> pending = new ArrayList<>();
      private boolean summarised;

      @Override
      public boolean hasNext() {
        while (pending.isEmpty() && keys.hasNext()) {
          decideKey(keys.next());
        }
        if (pending.isEmpty() && !summarised) {
          summarised = true;
          record.finish();
          pending.add(new Decision(null, unlisted));
        }
        return !pending.isEmpty();
      }

      @Override
      public Decision next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return pending.remove(pending.size() - 1);
      }

      private void decideKey(Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<MarkState>>> key) {
        Optional<MarkState> mark = Optional.empty();
        for (MarkState state : key._2()._2()) {
          mark = Optional.of(mark.map(state::merge).orElse(state));
        }
        Iterator<FileEntry> files = key._2()._1().iterator();
        if (!files.hasNext()) {
          mark.ifPresent(state -> unlisted = unlisted.plus(decide.unlisted(key._1(), state)));
          return;
        }
        while (files.hasNext()) {
          FileEntry listed = files.next();
          decide.decideAndRecord(listed, mark, record::addListed).ifPresent(file -> pending.add(new Decision(file, null)));
        }
      }
    };
  }
}
