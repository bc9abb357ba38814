package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.Generations;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ExpiryRecord}s of one dataset on its store, in its ledger's directory: written by
 * {@code expire_versions} before it deletes a manifest, read by every cleanup's mark stage
 * ({@link MarkTasks}) so that the sweep sees the expired versions' files as verified.
 *
 * <p>Records are separate immutable files rather than ledger segments: an expire reads only the
 * manifests it expires, so it cannot continue the ledger's fold (which needs every version
 * summarised), and a record must be usable whether or not the table has a ledger. The ledger's
 * commits and its pruning never name or touch them.
 */
public final class ExpiryRecords {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiryRecords.class);
  static final String PREFIX = "expired-";
  static final String SUFFIX = ".rec";

  private final TableStorage storage;
  private final String datasetDir;
  private final String fingerprint;

  public ExpiryRecords(TableStorage storage, String datasetDir) {
    this.storage = storage;
    this.datasetDir = datasetDir;
    this.fingerprint = Ledger.fingerprint(storage.location().identity(), datasetDir);
  }

  /**
   * Writes the record of {@code versions} and what only they referenced, and reads it back: when
   * this returns, a sweep will find it. Fails, naming the file, when the store did not keep it; the
   * caller then deletes nothing.
   *
   * @return the record's path
   */
  public String commit(List<ExpiryRecord.ExpiredVersion> versions, Collection<LedgerElement> elements) {
    byte[] content = new ExpiryRecord(fingerprint, datasetDir, versions, List.copyOf(elements)).encode();
    long first = versions.get(0).version();
    long last = versions.get(versions.size() - 1).version();
    String path = TablePaths.join(Ledger.dirOf(datasetDir),
        PREFIX + String.format("%019d-%019d-", first, last) + UUID.randomUUID() + SUFFIX);
    if (!storage.createIfAbsent(path, content) || !Arrays.equals(storage.readFully(path), content)) {
      throw new MaintenanceException("Cannot record the expiry of versions " + first + ".." + last + " of "
          + storage.location() + ": " + path + " did not read back as written; no manifest was deleted");
    }
    return path;
  }

  /**
   * Every element the dataset's usable records name, marked {@link MarkState#EXPIRED}. A record
   * that does not decode or describes another table is skipped with a warning: its files are then
   * unverified, which keeps more, never less.
   */
  public List<ReferenceMark> expiredMarks() {
    Map<String, ReferenceMark> marks = new LinkedHashMap<>();
    int records = 0;
    List<String> paths = new ArrayList<>();
    try {
      for (Iterator<FileEntry> files = storage.listFiles(Ledger.dirOf(datasetDir), false); files.hasNext(); ) {
        String path = files.next().path();
        String name = Generations.lastSegment(path);
        if (name.startsWith(PREFIX) && name.endsWith(SUFFIX)) {
          paths.add(path);
        }
      }
    } catch (StorageException e) {
      // Records can only add deletes: without them the run keeps more, never less.
      LOG.warn("lance maintenance {}: expiry records not read, their files count as unverified: {}",
          storage.location(), e.getMessage());
      return List.of();
    }
    for (String path : paths) {
      try {
        ExpiryRecord record = ExpiryRecord.decode(path, storage.readFully(path));
        if (!record.fingerprint().equals(fingerprint) || !record.datasetDir().equals(datasetDir)) {
          throw new LedgerFormatException(path, "describes another table or dataset");
        }
        records++;
        for (LedgerElement element : record.elements()) {
          marks.putIfAbsent(element.key(), new ReferenceMark(element.key(), element.kind(), MarkState.EXPIRED));
        }
      } catch (LedgerFormatException | StorageException e) {
        LOG.warn("lance maintenance {}: expiry record not used, its files count as unverified: {}",
            storage.location(), e.getMessage());
      }
    }
    if (records > 0) {
      LOG.info("lance maintenance {}: {} expiry records name {} files of expired versions",
          storage.location(), records, marks.size());
    }
    return List.copyOf(marks.values());
  }
}
