package dev.lancemaintenance.flink.maintenance.operator;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.storage.FileEntry;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/** The Flink types of the records that cross operators, declared once so no operator relies on inference. */
public final class CleanupTypes {
  public static final TypeInformation<ManifestSlice> SLICE = new JavaSerializedType<>(ManifestSlice.class);
  public static final TypeInformation<MarkSummary> SUMMARY = new JavaSerializedType<>(MarkSummary.class);
  public static final TypeInformation<ListingTask> LISTING = TypeInformation.of(ListingTask.class);
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
