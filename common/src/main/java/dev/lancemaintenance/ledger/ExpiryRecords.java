package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CleanupMode;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ExpiryRecord}s of one dataset on its store, in its ledger's directory: written by
 * {@code expire_versions} before it deletes a manifest, read by the mark stage of every cleanup
 * ({@link ExpiryRecordMarks}, tasks of {@link MarkTasks}) so that the sweep sees the expired
 * versions' files as verified, and retired by the first cleanup that used them and swept
 * completely (docs/cleanup-semantics.md, section 17).
 *
 * <p>Records are separate immutable files rather than ledger segments: an expire reads only the
 * manifests it expires, so it cannot continue the ledger's fold (which needs every version
 * summarised), and a record must be usable whether or not the table has a ledger. The ledger's
 * commits and its pruning never name or touch them.
 *
 * <p>Memory on the driver: the records' paths, never what they hold; tasks read the records.
 */
public final class ExpiryRecords {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiryRecords.class);
  static final String PREFIX = "expired-";
  static final String SUFFIX = ".rec";
  /** Records per mark task: a record names what at most 64 versions referenced. */
  static final int RECORDS_PER_TASK = 16;

  private final TableStorage storage;
  private final DatasetRef dataset;
  private final String fingerprint;

  public ExpiryRecords(TableStorage storage, DatasetRef dataset) {
    this.storage = storage;
    this.dataset = dataset;
    this.fingerprint = Ledger.fingerprint(storage.location().identity(), dataset);
  }

  /**
   * Writes the record of {@code versions} and what only they referenced, and reads it back: when
   * this returns, a sweep will find it. Fails, naming the file, when the store did not keep it; the
   * caller then deletes nothing.
   *
   * @return the record's path
   */
  public String commit(List<ExpiryRecord.ExpiredVersion> versions, Collection<LedgerElement> elements) {
    byte[] content = new ExpiryRecord(fingerprint, dataset, versions, List.copyOf(elements)).encode();
    long first = versions.get(0).version();
    long last = versions.get(versions.size() - 1).version();
    String path = TablePaths.join(Ledger.dirOf(dataset),
        PREFIX + String.format("%019d-%019d-", first, last) + UUID.randomUUID() + SUFFIX);
    if (!storage.createIfAbsent(path, content) || !Arrays.equals(storage.readFully(path), content)) {
      throw new MaintenanceException("Cannot record the expiry of versions " + first + ".." + last + " of "
          + storage.location() + ": " + path + " did not read back as written; no manifest was deleted");
    }
    return path;
  }

  /**
   * The mark tasks that read the dataset's records, at most {@value #RECORDS_PER_TASK} each; the
   * driver lists the records' names and reads none. When the listing fails the run goes on without
   * them: records only add deletes, so their files then count as unverified, which keeps more,
   * never less.
   */
  public List<MarkTask> markTasks() {
    LedgerDirectory listed;
    try {
      listed = LedgerDirectory.list(storage, dataset);
    } catch (StorageException e) {
      LOG.warn("lance maintenance {}: expiry records not listed, their files count as unverified: {}",
          storage.location(), e.getMessage());
      return List.of();
    }
    return markTasks(listed);
  }

  /** As {@link #markTasks()}, from a listing of the ledger's directory the run took once for all its readers. */
  public List<MarkTask> markTasks(LedgerDirectory listed) {
    if (!listed.dataset().equals(dataset)) {
      throw new IllegalArgumentException("a listing of " + listed.dataset() + "'s ledger, not " + dataset + "'s");
    }
    List<String> paths = listed.expiryRecords();
    List<MarkTask> tasks = new ArrayList<>();
    for (int from = 0; from < paths.size(); from += RECORDS_PER_TASK) {
      tasks.add(new ExpiryRecordMarks(paths.subList(from, Math.min(paths.size(), from + RECORDS_PER_TASK)), fingerprint, dataset));
    }
    if (!paths.isEmpty()) {
      LOG.info("lance maintenance {}: {} expiry records to read in {} mark tasks", storage.location(), paths.size(), tasks.size());
    }
    return tasks;
  }

  /**
   * Deletes {@code records}, the records a cleanup's mark stage used, once that cleanup has swept
   * completely ({@code CleanupRun.retiresExpiryRecords} says when). Each record goes whole or stays
   * whole (one file, one delete), and one that stays is only read again by the next run, which
   * decides its files as this one did: a failed delete is logged, never an error.
   */
  public void retire(Collection<String> records) {
    List<String> paths = List.copyOf(records);
    int batch = Math.max(1, storage.maxDeleteBatchSize());
    long failed = 0;
    for (int from = 0; from < paths.size(); from += batch) {
      try {
        for (TableStorage.DeleteFailure failure : storage.deleteBatch(paths.subList(from, Math.min(paths.size(), from + batch)))) {
          failed++;
          LOG.warn("lance maintenance {}: expiry record {} not retired (the next run reads it again): {}",
              storage.location(), failure.path(), failure.reason());
        }
      } catch (StorageException e) {
        failed += Math.min(batch, paths.size() - from);
        LOG.warn("lance maintenance {}: expiry records not retired (the next run reads them again): {}",
            storage.location(), e.getMessage());
      }
    }
    if (!paths.isEmpty()) {
      LOG.info("lance maintenance {}: {} of {} expiry records retired: a complete sweep decided every file they name",
          storage.location(), paths.size() - failed, paths.size());
    }
  }

  /**
   * Retires the records a cleanup's mark stage used, once its engine's driver (or Flink's client)
   * has the rule's yes ({@code CleanupRun.retiresExpiryRecords}): the same steps on every engine.
   * Nothing in a dry run, which deleted nothing, so the records still stand for the versions it
   * only reported on. The lease is checked first, as before every delete a driver sends: a run that
   * lost it stops instead of deleting alongside the new holder.
   *
   * @param ensureLeaseHeld fails when the run no longer holds the table lease
   */
  public static void retireUsed(CleanupMode mode, Runnable ensureLeaseHeld, TableStorageFactory storages,
      TableLocation table, DatasetRef dataset, Collection<String> records) {
    if (mode == CleanupMode.DRY_RUN || records.isEmpty()) {
      return;
    }
    ensureLeaseHeld.run();
    try (TableStorage storage = storages.open(table)) {
      new ExpiryRecords(storage, dataset).retire(records);
    }
  }

  /** Whether a file of the ledger's directory, by name, is an expiry record. */
  static boolean isRecord(String name) {
    return name.startsWith(PREFIX) && name.endsWith(SUFFIX);
  }
}
