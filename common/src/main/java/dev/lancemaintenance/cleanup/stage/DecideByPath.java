package dev.lancemaintenance.cleanup.stage;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Stage {@code decide}: for one listed file and what the manifests said about its reference key, whether
 * it goes and why. Pure; every engine calls it after co-grouping listings and marks by key.
 *
 * <p>The rules are Lance's (see docs/cleanup-semantics.md), applied to the path relative to the
 * dataset being cleaned (the main table or a branch's {@code tree/<branch>}):
 *
 * <ol>
 *   <li>A file newer than the earliest retained manifest is kept: it may belong to a write in flight
 *       (one of the same millisecond too, since it cannot be ordered against the manifest).
 *   <li>Only files Lance manages are candidates ({@link ManagedLayout#candidateKind}); everything
 *       else (refs, branches, hints, unknown files) is kept.
 *   <li>A file a retained version references is kept.
 *   <li>A file only removed versions referenced ("verified") goes, whatever its age.
 *   <li>A file no manifest references ("unverified") goes only when older than 7 days, or when
 *       {@code delete_unverified} is set.
 * </ol>
 *
 * <p>The co-group also meets keys that manifests reference and no listed file carries. Such a key
 * of a retained version means the table is damaged or the listing incomplete: {@link #unlisted}
 * reports it, and every engine refuses the run before its first delete ({@link
 * UnlistedReferences#refuseIfAny}), since what else the listing missed cannot be known.
 */
public final class DecideByPath {
  private final DecisionContext context;

  public DecideByPath(DecisionContext context) {
    this.context = context;
  }

  /**
   * Decides one listed file.
   *
   * @param file the listed file, its attributes read
   * @param mark what the manifests said about its reference key, empty when nothing references it
   */
  public Optional<CandidateFile> decide(FileEntry file, Optional<MarkState> mark) {
    return decide(file, mark, DecideByPath::attributesRequired);
  }

  /**
   * Decides one listed file whose attributes the listing may have left unread ({@link
   * FileEntry.EntryType#UNREAD}, a local listing of names), reading them through {@code
   * withAttributes} only when the decision turns on them: for a file of a candidate kind that no
   * retained version references. The rules' order is Lance's but each of the first three only
   * keeps, so the two that need no attributes (the kind, a keeping mark) go first. A file whose
   * attributes show it went away is decided as a listing a moment later would have: not listed,
   * kept.
   *
   * @param listed the listed file, its attributes read or not
   * @param mark what the manifests said about its reference key, empty when nothing references it
   * @param withAttributes reads the attributes of an unread entry (empty when it went away)
   */
  public Optional<CandidateFile> decide(
      FileEntry listed, Optional<MarkState> mark, Function<FileEntry, Optional<FileEntry>> withAttributes) {
    return decide(listed, mark, withAttributes, keptForItsAge -> {}, keptAfterTheCutoff -> {});
  }

  /**
   * Decides one listed file as {@link #decide(FileEntry, Optional, Function)}, and hands it, as
   * listed, to {@code recorded} when a run resuming this one must decide it again: when it goes,
   * and when it is kept only for its age (an unreferenced file younger than 7 days, or than the
   * retention guard), which the later clock of that run may let go. Every other file a listing shows
   * is kept for a reason the resuming run's equal marks and listing cut-off keep too, so a run that
   * decides its recorded files again decides as a full run would (docs/cleanup-semantics.md,
   * section 19).
   *
   * @param recorded where the run records what it decided ({@code RecordedFiles.Part#addListed})
   */
  public Optional<CandidateFile> decideAndRecord(
      FileEntry listed, Optional<MarkState> mark, Function<FileEntry, Optional<FileEntry>> withAttributes,
      Consumer<FileEntry> recorded) {
    return decideAndRecord(listed, mark, withAttributes, recorded, keptUnreferenced -> {});
  }

  /**
   * As {@link #decideAndRecord(FileEntry, Optional, Function, Consumer)}, and hands {@code
   * keptUnreferenced} every present file of a candidate kind that it keeps though no retained
   * version references it (for its age, or for a time at or after the listing's cut-off), with its
   * attributes: what a later run that does not list must examine again, since only a listing would
   * show it (docs/ledger.md, section 11.1, {@code K}).
   */
  public Optional<CandidateFile> decideAndRecord(
      FileEntry listed, Optional<MarkState> mark, Function<FileEntry, Optional<FileEntry>> withAttributes,
      Consumer<FileEntry> recorded, Consumer<FileEntry> keptUnreferenced) {
    Optional<CandidateFile> decided = decide(listed, mark, withAttributes, keptForItsAge -> {
      recorded.accept(listed);
      keptUnreferenced.accept(keptForItsAge);
    }, keptUnreferenced);
    decided.ifPresent(goes -> recorded.accept(listed));
    return decided;
  }

  /** As {@link #decideAndRecord}, for a caller whose listings always carry attributes. */
  public Optional<CandidateFile> decideAndRecord(FileEntry listed, Optional<MarkState> mark, Consumer<FileEntry> recorded) {
    return decideAndRecord(listed, mark, DecideByPath::attributesRequired, recorded);
  }

  private Optional<CandidateFile> decide(
      FileEntry listed, Optional<MarkState> mark, Function<FileEntry, Optional<FileEntry>> withAttributes,
      Consumer<FileEntry> keptForItsAge, Consumer<FileEntry> keptAfterTheCutoff) {
    Optional<FileKind> kind = ManagedLayout.candidateKind(context.dataset().relativize(listed.path()));
    if (kind.isEmpty() || (mark.isPresent() && mark.get().keeps())) {
      return Optional.empty();
    }
    Optional<FileEntry> read = listed.attributesRead() ? Optional.of(listed) : withAttributes.apply(listed);
    if (read.isEmpty()) {
      return Optional.empty();
    }
    FileEntry file = read.get();
    if (file.modificationTimeMillis() >= context.listingCutoffMillis()) {
      keptAfterTheCutoff.accept(file);
      return Optional.empty();
    }
    // Present and not kept: only versions being removed reference it. Not so for a link: what they
    // referenced is whatever the link points at, which may lie outside the table, so a link goes
    // by the unverified rules only, and deleting it removes the link, never its target.
    boolean expired = mark.isPresent() && file.type() == FileEntry.EntryType.FILE;
    boolean young = file.modificationTimeMillis() >= context.unverifiedThresholdMillis();
    if (expired) {
      return Optional.of(candidate(file, kind.get(), RemovalReason.EXPIRED_VERSION));
    }
    if (!young) {
      return Optional.of(candidate(file, kind.get(), RemovalReason.UNVERIFIED_OLDER_THAN_7D));
    }
    // The retention guard: even with delete_unverified, a file this young may be a write in progress.
    if (context.deleteUnverified() && file.modificationTimeMillis() < context.guardThresholdMillis()) {
      return Optional.of(candidate(file, kind.get(), RemovalReason.UNVERIFIED_DELETE_UNVERIFIED));
    }
    keptForItsAge.accept(file);
    return Optional.empty();
  }

  /** For a caller whose listings always carry attributes: an unread entry there is a bug, never a guess. */
  private static Optional<FileEntry> attributesRequired(FileEntry listed) {
    throw new IllegalStateException("The decision needs the size and time of " + listed.path()
        + ", which its listing did not read");
  }

  /**
   * Decides a reference key for which the listing showed no file.
   *
   * @param key the reference key
   * @param mark what the manifests said about it
   * @return the key as missing when a retained version needs it; nothing when only removed versions
   *     did (their files may well have gone already, in an earlier run that stopped before the
   *     manifests), or when it was named through a base path that may be another table's ({@link
   *     MarkState#KEPT_IF_PRESENT}: a LanceDB shallow clone names its source relative to a working
   *     directory we cannot know)
   */
  public UnlistedReferences unlisted(String key, MarkState mark) {
    return mark == MarkState.KEPT ? UnlistedReferences.of(key) : UnlistedReferences.NONE;
  }

  private static CandidateFile candidate(FileEntry file, FileKind kind, RemovalReason reason) {
    return new CandidateFile(file.path(), kind, file.size(), reason);
  }
}
