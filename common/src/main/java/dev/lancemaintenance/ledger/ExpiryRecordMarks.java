package dev.lancemaintenance.ledger;

import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A mark task that reads a few {@link ExpiryRecord}s where the engine runs it (an executor, a
 * Flink subtask, a pool thread) and marks every element they name {@link MarkState#EXPIRED}, as a
 * cleanup marks an expired version's files had its manifest still been listed; kept wins when the
 * marks meet. Its summary names the records it used, so that a run that sweeps completely retires
 * exactly those ({@link ExpiryRecords#retire}).
 *
 * <p>A record that does not decode, or describes another table or dataset, is skipped with a
 * warning and not named: its files are then unverified, which keeps more, never less; a record
 * gone since the listing (retired by an executing run while this one is a dry run) is skipped too.
 *
 * @param paths the records to read
 * @param fingerprint the table's fingerprint, as the driver computed it
 * @param dataset the dataset whose records these are
 */
public record ExpiryRecordMarks(List<String> paths, String fingerprint, DatasetRef dataset) implements MarkTask {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiryRecordMarks.class);

  public ExpiryRecordMarks {
    paths = List.copyOf(paths);
    Objects.requireNonNull(fingerprint, "fingerprint");
    Objects.requireNonNull(dataset, "dataset");
  }

  @Override
  public MarkResult mark(TableStorage storage, RetentionFacts facts) {
    Map<String, ReferenceMark> marks = new LinkedHashMap<>();
    Set<String> used = new TreeSet<>();
    for (String path : paths) {
      try {
        ExpiryRecord record = ExpiryRecord.decode(path, storage.readFully(path));
        if (!record.fingerprint().equals(fingerprint) || !record.dataset().equals(dataset)) {
          throw new LedgerFormatException(path, "describes another table or dataset");
        }
        for (LedgerElement element : record.elements()) {
          marks.putIfAbsent(element.key(), new ReferenceMark(element.key(), element.kind(), MarkState.EXPIRED));
        }
        used.add(path);
      } catch (LedgerFormatException | StorageException e) {
        LOG.warn("lance maintenance {}: expiry record not used, its files count as unverified: {}",
            storage.location(), e.getMessage());
      }
    }
    return new MarkResult(new ArrayList<>(marks.values()), List.of(), MarkSummary.ofExpiryRecords(used));
  }

  @Override
  public int manifestsToDecode() {
    return 0;
  }
}
