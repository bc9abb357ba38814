package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.storage.FileEntry;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** The Flink types of the records that cross operators, declared once so no operator relies on inference. */
public final class CleanupTypes {
  public static final TypeInformation<MarkTask> MARK_TASK = new JavaSerializedType<>(MarkTask.class);
  public static final TypeInformation<MarkTask.Derived> MARKED = new JavaSerializedType<>(MarkTask.Derived.class);
  public static final TypeInformation<ManifestRun> MANIFEST_RUN = new JavaSerializedType<>(ManifestRun.class);
  public static final TypeInformation<RunSummary> RUN_SUMMARY = new JavaSerializedType<>(RunSummary.class);
  public static final TypeInformation<MarkSummary> SUMMARY = new JavaSerializedType<>(MarkSummary.class);
  /** Java-serialized: the {@code _versions/} task carries the plan's walk of it as a {@code List.copyOf}. */
  public static final TypeInformation<ListingTask> LISTING = new JavaSerializedType<>(ListingTask.class);
  public static final TypeInformation<ReferenceMark> MARK = TypeInformation.of(ReferenceMark.class);
  public static final TypeInformation<FileEntry> FILE = TypeInformation.of(FileEntry.class);
  public static final TypeInformation<DecideInput> DECIDE_INPUT = TypeInformation.of(DecideInput.class);
  public static final TypeInformation<DecisionContext> CONTEXT = TypeInformation.of(DecisionContext.class);
  public static final TypeInformation<CandidateFile> CANDIDATE = TypeInformation.of(CandidateFile.class);
  public static final TypeInformation<CleanupCounters> COUNTERS = TypeInformation.of(CleanupCounters.class);
  public static final TypeInformation<RunOutput> OUTPUT = TypeInformation.of(RunOutput.class);
  public static final TypeInformation<UnlistedReferences> UNLISTED = new JavaSerializedType<>(UnlistedReferences.class);

  private CleanupTypes() {}
}
