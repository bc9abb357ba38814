package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.runs.RecordedFiles;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.Objects;
import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Records what one decide subtask decided (its {@link DecideFiles#DECIDED} side output, forwarded at
 * the decide's parallelism) in that subtask's part ({@link RecordedFiles#decidePart}, by subtask
 * index and attempt), ended whole only when the input ended: a subtask that fails leaves a part that
 * never reads, so a later run starts over instead of resuming from it. Emits nothing.
 */
public final class RecordDecided extends AbstractStreamOperator<RunOutput>
    implements OneInputStreamOperator<FileEntry, RunOutput>, BoundedOneInput {
  private final TableLocation table;
  private final TableStorageFactory storageFactory;
  private final RecordedFiles decidedFiles;
  private transient TableStorage storage;
  private transient RecordedFiles.Part record;

  public RecordDecided(TableLocation table, TableStorageFactory storageFactory, RecordedFiles decidedFiles) {
    this.table = Objects.requireNonNull(table, "table");
    this.storageFactory = Objects.requireNonNull(storageFactory, "storageFactory");
    this.decidedFiles = Objects.requireNonNull(decidedFiles, "decidedFiles");
  }

  @Override
  public void open() throws Exception {
    super.open();
    storage = storageFactory.open(table);
    TaskInfo task = getRuntimeContext().getTaskInfo();
    record = decidedFiles.decidePart(storage, task.getIndexOfThisSubtask(), task.getAttemptNumber());
  }

  @Override
  public void processElement(StreamRecord<FileEntry> element) {
    record.addListed(element.getValue());
  }

  @Override
  public void endInput() {
    record.finish();
  }

  /** After {@link #endInput}, nothing more; after a failure, leaves the part without its end. */
  @Override
  public void close() throws Exception {
    try (TableStorage opened = storage) {
      if (record != null) {
        record.close();
      }
    } finally {
      super.close();
    }
  }
}
