package dev.lancemaintenance.report;

import dev.lancemaintenance.cleanup.rules.ManagedLayout;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.ReferenceKeys;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The report's decide stage: for one listed file and the age of its reference key, adds it to the
 * counters: its kind and category under the given policy, what each window frees, its age when
 * nothing references it, the tags and branches that hold it.
 *
 * <p>Whether a window frees the file is the cleanup's own decision: {@link DecideByPath} with that
 * window's context, fed the mark state the window gives the key ({@link ReferenceAge#stateUnder});
 * a manifest goes with its version, exactly when the cleanup's classification expires it. Pure, one
 * file at a time.
 */
public final class ClassifyFiles {
  private static final String MANIFEST_SUFFIX = ".manifest";

  private final ReportContext context;
  private final DecideByPath given;
  private final List<DecideByPath> windows = new ArrayList<>();

  public ClassifyFiles(ReportContext context) {
    this.context = context;
    this.given = new DecideByPath(context.given().context());
    context.windows().forEach(window -> windows.add(new DecideByPath(window.context())));
  }

  /** The reference key of a listed file, to co-group it with the ages. */
  public String keyOf(String path) {
    return ReferenceKeys.keyOf(context.dataset(), path);
  }

  /** Adds one listed file, with the age of its key when a manifest references it, to {@code counters}. */
  public void add(FileEntry file, Optional<ReferenceAge> age, StorageCounters counters) {
    String inDataset = context.dataset().relativize(file.path());
    boolean manifest = isManifest(inDataset) && age.isPresent();
    for (int i = 0; i < windows.size(); i++) {
      if (frees(windows.get(i), context.windows().get(i), file, age, manifest)) {
        counters.addFreed(i, file.size());
      }
    }
    Optional<FileKind> candidateKind = ManagedLayout.candidateKind(inDataset);
    FileKind kind = manifest ? FileKind.MANIFEST : candidateKind.or(() -> age.map(ReferenceAge::kind)).orElse(FileKind.OTHER);
    StorageCategory category;
    if (frees(given, context.given(), file, age, manifest)) {
      category = StorageCategory.RECLAIMABLE;
    } else if (age.isPresent()) {
      category = age.get().referencedByLatest() ? StorageCategory.LATEST : StorageCategory.RETAINED;
    } else {
      category = candidateKind.isPresent() ? StorageCategory.UNVERIFIED : StorageCategory.UNMANAGED;
    }
    counters.addFile(new KindCategory(kind, category), file.size());
    if (age.isEmpty() && candidateKind.isPresent()) {
      counters.addUnverified(AgeBucket.of(context.nowMillis() - file.modificationTimeMillis()), file.size());
    }
    age.ifPresent(a -> {
      a.pins().forEach(pin -> counters.addPinned(pin, file.size()));
      if (!a.pinned() && a.newestVersion() >= 0) {
        counters.addFreedWithVersion(a.newestVersion(), file.size());
      }
    });
  }

  private static boolean frees(
      DecideByPath decide, ReportWindow window, FileEntry file, Optional<ReferenceAge> age, boolean manifest) {
    if (manifest) {
      // A manifest goes exactly when its version expires (the cleanup's release stage), whatever its mtime.
      return age.get().stateUnder(window.policy()) == MarkState.EXPIRED;
    }
    return decide.decide(file, age.map(a -> a.stateUnder(window.policy()))).isPresent();
  }

  private static boolean isManifest(String inDataset) {
    return inDataset != null
        && inDataset.startsWith(ManagedLayout.VERSIONS + "/")
        && inDataset.endsWith(MANIFEST_SUFFIX)
        && inDataset.indexOf('/', ManagedLayout.VERSIONS.length() + 1) < 0;
  }
}
