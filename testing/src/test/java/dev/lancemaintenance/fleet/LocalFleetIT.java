package dev.lancemaintenance.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.compaction.OptimizeAction;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cleanup_all}, {@code describe_storage_all} and {@code optimize_all} on the local engine: a
 * bounded pool of tables, each through its own local run.
 */
class LocalFleetIT extends FleetContract {
  private static final TableStorageFactory STORAGE = HadoopTableStorage.factory(StorageConf.defaults());

  @TempDir Path dir;

  @Override
  protected List<TableOutcome> cleanupAll(String rootUri, Map<String, String> options) {
    return run(rootUri, DirectoryNamespace.DEFAULT_PATTERN, CleanupOption.parseAll(options));
  }

  /** As the CLI's {@code describe-all}: each table's local report on the pool. */
  @Override
  protected List<TableOutcome> describeAll(String rootUri, Map<String, String> options) {
    TableLocation root = TableLocation.of(rootUri);
    FleetDescribe fleet = FleetDescribe.of(root, STORAGE, CleanupOption.parseAll(options), Instant.now());
    return FleetPool.run(fleet.tables(root, DirectoryNamespace.DEFAULT_PATTERN), 2, table -> fleet.onWorker(table, Long.MAX_VALUE));
  }

  /** As the CLI's {@code optimize-all} on the local engine: each table's local optimize on the pool. */
  @Override
  protected List<TableOutcome> optimizeAll(String rootUri, Map<String, String> options) {
    TableLocation root = TableLocation.of(rootUri);
    FleetOptimize fleet = FleetOptimize.of(root, STORAGE, Map.of(), OptimizeAction.OPTIONS.parseAll(options), Clock.systemUTC());
    return FleetPool.run(fleet.tables(root, DirectoryNamespace.DEFAULT_PATTERN), 2, table -> fleet.onWorker(table, Long.MAX_VALUE));
  }

  private static List<TableOutcome> run(String rootUri, String pattern, Map<CleanupOption, Object> options) {
    TableLocation root = TableLocation.of(rootUri);
    FleetCleanup fleet = FleetCleanup.of(root, STORAGE, options, Instant.now());
    return FleetPool.run(fleet.tables(root, pattern), 2,
        table -> fleet.through(table, fleet.using(t -> new LocalCleanupAction(t, STORAGE, Clock.systemUTC()))));
  }

  /**
   * Where an engine's fleet splits ({@code cleanup_all}: Spark's task, Flink's subtask, or the
   * engine's own cleanup): the call's {@code distribute_above}, else the engine's setting.
   */
  @Test
  void theFleetSplitsAtTheCallsDistributeAboveElseAtTheEnginesSetting() {
    TableLocation root = TableLocation.of(dir.toUri().toString());
    assertThat(FleetCleanup.of(root, STORAGE, Map.of(CleanupOption.DISTRIBUTE_ABOVE, 0), Instant.now()).runOnWorkerUpTo(5_000))
        .as("distribute_above => 0 over the engine's 5,000").isZero();
    assertThat(FleetCleanup.of(root, STORAGE, Map.of(CleanupOption.DISTRIBUTE_ABOVE, 120), Instant.now()).runOnWorkerUpTo(0))
        .as("distribute_above => 120 over the engine's 0").isEqualTo(120);
    assertThat(FleetCleanup.of(root, STORAGE, Map.of(), Instant.now()).runOnWorkerUpTo(77)).as("the engine's 77").isEqualTo(77);
  }

  @Test
  void mistakesFailTheCallBeforeAnyTableRuns() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t.lance"));
    table.append(10);
    String root = dir.toUri().toString();

    assertThatThrownBy(() -> run(root, DirectoryNamespace.DEFAULT_PATTERN, CleanupOption.parseAll(Map.of("dryrun", "true"))))
        .hasMessageContaining("Unknown cleanup argument 'dryrun'");
    assertThatThrownBy(() -> run(root, DirectoryNamespace.DEFAULT_PATTERN, Map.of(CleanupOption.MAX_CONCURRENT_DELETES, 0)))
        .hasMessageContaining("max_concurrent_deletes");
    assertThatThrownBy(() -> run(root, "a/b", Map.of())).hasMessageContaining("Parameter 'pattern'");
    assertThatThrownBy(() -> run(table.uri(), DirectoryNamespace.DEFAULT_PATTERN, Map.of()))
        .hasMessageContaining("is a Lance table, not a directory of tables");
    assertThatThrownBy(() -> run(dir.resolve("missing").toUri().toString(), DirectoryNamespace.DEFAULT_PATTERN, Map.of()))
        .hasMessageContaining("missing");
    assertThatThrownBy(() -> FleetDescribe.of(TableLocation.of(root), STORAGE, Map.of(CleanupOption.DRY_RUN, true), Instant.now()))
        .hasMessageContaining("dry_run");
  }
}
