package dev.lancemaintenance.expire;

import dev.lancemaintenance.OptionCatalogue;
import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.CleanupResult;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.cleanup.MarkMode;
import dev.lancemaintenance.cleanup.engine.BaseCleanupAction;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * {@code expire_versions} as every entry point runs it (CLI {@code expire}, Spark and Flink {@code
 * CALL}, the Java API): the cleanup's fluent action, its policy setters, lease and dataset, with the
 * mark, list, decide and sweep replaced by {@link ExpireVersions}. It runs where it is called (the
 * driver): it reads only the manifests it expires and deletes only manifests, so there is nothing to
 * distribute.
 *
 * <p>Its options are the cleanup's that choose versions ({@link #OPTIONS}); the setters of the
 * cleanup's other options refuse, naming the option, rather than being ignored.
 */
public final class ExpireVersionsAction extends BaseCleanupAction<ExpireVersionsAction> {
  /**
   * The options of {@code expire_versions}, in the order of its SQL parameters after the table: the
   * cleanup catalogue's own entries, so names, types, defaults and docs have one home.
   */
  public static final List<CleanupOption> OPTIONS = List.of(
      CleanupOption.OLDER_THAN, CleanupOption.BEFORE_VERSION, CleanupOption.RETAIN_LAST, CleanupOption.DRY_RUN,
      CleanupOption.ERROR_IF_TAGGED_OLD_VERSIONS, CleanupOption.BRANCH);

  /** {@link #OPTIONS} as the catalogue every entry point of {@code expire_versions} parses with. */
  public static final OptionCatalogue CATALOGUE = OptionCatalogue.of("expire_versions", OPTIONS);

  public ExpireVersionsAction(TableLocation table, TableStorageFactory storageFactory, Clock clock) {
    // Expire runs where it is called (the CLI, a Spark driver, a Flink client), on no engine's tasks.
    super(table, storageFactory, clock, "driver");
  }

  @Override
  public ExpireVersionsAction options(Map<String, String> options) {
    return CleanupOption.applyTo(self(), OptionCatalogue.only(CleanupOption.class, CATALOGUE.parseAll(options)), clock().instant());
  }

  @Override
  protected String actionName() {
    return "expire_versions";
  }

  @Override
  protected CleanupResult cleanDataset(DatasetCleanup cleanup) {
    long startNanos = System.nanoTime();
    try (TableStorage storage = storageFactory().open(table())) {
      ExpireVersions run = new ExpireVersions(
          storage, new CleanupPlanner(), settings().mode(), removedFileListener(), this::ensureLeaseHeld);
      ExpireVersions.Outcome outcome = run.run(cleanup);
      long durationMillis = (System.nanoTime() - startNanos) / 1_000_000L;
      return new CleanupResult(
          describe(), settings().mode(), outcome.readVersion(), outcome.counters(), durationMillis, MarkMode.FULL,
          outcome.manifestsRead());
    }
  }

  @Override
  public ExpireVersionsAction deleteUnverified(boolean value) {
    return refuseUnless(!value, CleanupOption.DELETE_UNVERIFIED);
  }

  @Override
  public ExpireVersionsAction allowShortRetention(boolean value) {
    return refuseUnless(!value, CleanupOption.ALLOW_SHORT_RETENTION);
  }

  @Override
  public ExpireVersionsAction cleanReferencedBranches(boolean value) {
    return refuseUnless(!value, CleanupOption.CLEAN_REFERENCED_BRANCHES);
  }

  @Override
  public ExpireVersionsAction deleteRateLimit(long filesPerSecond) {
    return refuseUnless(filesPerSecond == 0, CleanupOption.DELETE_RATE_LIMIT);
  }

  @Override
  public ExpireVersionsAction maxDeletes(long count) {
    return refuseUnless(false, CleanupOption.MAX_DELETES);
  }

  @Override
  public ExpireVersionsAction markMode(MarkMode mode) {
    return refuseUnless(mode == MarkMode.FULL, CleanupOption.MODE);
  }

  @Override
  public ExpireVersionsAction verify(boolean value) {
    return refuseUnless(!value, CleanupOption.VERIFY);
  }

  private ExpireVersionsAction refuseUnless(boolean harmless, CleanupOption option) {
    if (!harmless) {
      throw CATALOGUE.unknown(option.sqlName(), List.of());
    }
    return self();
  }
}
