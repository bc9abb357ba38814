package dev.lancemaintenance.ledger;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.storage.FileEntry;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@code verify => true} on a run that could have examined names instead of listing ({@link
 * ListingSkip}; docs/ledger.md, section 11.6): the run lists and decides as today, and the names
 * the run without a listing would examine are read from the store beside it and decided with the key
 * snapshot's answers, as that run decides them. Before the first delete, the two must delete the
 * same files for the same reasons; any file one deletes and the other does not (or deletes for
 * another reason) refuses the run, naming the table and the first such file and the side that
 * deletes it. What each side keeps does not enter: a run without a listing keeps every name it
 * does not examine, so deciding the same deletes is deciding the same files.
 *
 * <p>Holds the examined names and what the run without a listing would delete: tens on a daily
 * run; the listing's deletes stream past them ({@link #listingDeletes}).
 */
public final class ListingSkipVerification {
  private final String table;
  /** The examined names the listing showed too, for the message: which side lacks a file. */
  private final Set<String> examinedAndListed = ConcurrentHashMap.newKeySet();
  private final Map<String, FileEntry> examined = new HashMap<>();
  /** What the run without a listing would delete, by path. */
  private final TreeMap<String, CandidateFile> skipDeletes = new TreeMap<>();
  /** Each differing file, by path, and how it differs; only the first is named. */
  private final TreeMap<String, String> differences = new TreeMap<>();
  private int wouldDelete;

  private ListingSkipVerification(String table) {
    this.table = table;
  }

  /**
   * The run without a listing's side, as it would decide: each of {@code examined} (the names the
   * store gives for {@link ListingSkip.Decision#examined}, read as that run reads them, {@link
   * ListingSkip.Examined#filesNow}) decided by {@link DecideByPath} with {@code answers}, the key
   * snapshot's, which verify has already found equal to the marks.
   */
  public static ListingSkipVerification of(String table, DecisionContext context, KeySnapshotAnswers answers,
      Collection<FileEntry> examined, Function<FileEntry, Optional<FileEntry>> withAttributes) {
    ListingSkipVerification verification = new ListingSkipVerification(table);
    DecideByPath decide = new DecideByPath(context);
    for (FileEntry file : examined) {
      verification.examined.put(file.path(), file);
      decide.decide(file, answers.markOf(context.keyOf(file.path())), withAttributes)
          .ifPresent(goes -> verification.skipDeletes.put(goes.path(), goes));
    }
    verification.wouldDelete = verification.skipDeletes.size();
    return verification;
  }

  /** Whether {@code path}, listed by the run, is an examined name: for the message only. Safe from any thread. */
  public void listed(String path) {
    if (examined.containsKey(path)) {
      examinedAndListed.add(path);
    }
  }

  /** One file the listing's decision deletes; call once per file, from one thread, after every {@link #listed}. */
  public void listingDeletes(CandidateFile file) {
    CandidateFile skip = skipDeletes.remove(file.path());
    if (skip == null) {
      differences.put(file.path(), "the listing deletes it (" + file.reason() + ") and the run without a listing "
          + (examined.containsKey(file.path()) ? "examines it and keeps it" : "does not examine it"));
    } else if (skip.reason() != file.reason()) {
      differences.put(file.path(), "the listing deletes it (" + file.reason() + ") and the run without a listing too, but as "
          + skip.reason());
    }
  }

  /**
   * Throws, naming the table and the first differing file, unless every file the run without a
   * listing would delete was among the listing's deletes ({@link #listingDeletes}), for the same reason.
   */
  public void requireSame() {
    skipDeletes.forEach((path, skip) -> differences.put(path, "the run without a listing deletes it (" + skip.reason()
        + ") and the listing " + (examinedAndListed.contains(path) ? "keeps it" : "does not show it")));
    if (!differences.isEmpty()) {
      Map.Entry<String, String> first = differences.firstEntry();
      throw new MaintenanceException("Cannot clean up " + table + ": verify found the run without a listing would delete"
          + " other files than the listing in " + differences.size() + " place(s), nothing was deleted: first "
          + first.getKey() + ": " + first.getValue() + ". Run with listing => 'always' and report this.");
    }
  }

  /** How many files the run without a listing would delete, of how many names examined: for the log. */
  public String describe() {
    return wouldDelete + " of " + examined.size() + " names examined";
  }
}
