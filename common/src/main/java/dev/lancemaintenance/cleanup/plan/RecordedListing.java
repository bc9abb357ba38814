package dev.lancemaintenance.cleanup.plan;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import java.io.Serializable;
import java.util.Iterator;

/**
 * Files a dead run listed and decided, read back in place of a listing when a later run resumes its
 * sweep ({@code runs.RecordedFiles}, docs/ledger.md section 9). Defined here so that the list stage
 * reads it without knowing where run records live.
 */
public interface RecordedListing extends Serializable {
  /**
   * The recorded files as they were listed, lazily; fails naming the record when it does not read
   * whole, so that a run never decides on part of a record.
   */
  Iterator<FileEntry> files(TableStorage storage);

  /** The record, for logs and messages. */
  String describe();
}
