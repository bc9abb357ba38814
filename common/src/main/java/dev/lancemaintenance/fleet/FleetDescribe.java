package dev.lancemaintenance.fleet;

import dev.lancemaintenance.cleanup.CleanupOption;
import dev.lancemaintenance.cleanup.DatasetCleanup;
import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.local.LocalStorageReport;
import dev.lancemaintenance.report.StorageReport;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * {@code describe_storage_all}: the storage report of every table under a root, under the same
 * cleanup policy and the same "now", each exactly as {@code describe_storage} on that table alone,
 * in one row of totals per table ({@link StorageReport#totals()}). Deletes nothing.
 */
public final class FleetDescribe extends FleetRun {
  private static final long serialVersionUID = 1L;

  private final EnumMap<CleanupOption, Object> policy;

  private FleetDescribe(TableStorageFactory storage, Map<CleanupOption, ?> policy, Instant now) {
    super(storage, now);
    this.policy = policy.isEmpty() ? new EnumMap<>(CleanupOption.class) : new EnumMap<>(policy);
  }

  /**
   * A fleet report under this policy (no run settings); checked here, before any table is looked
   * at, by applying it to a cleanup of {@code root}.
   */
  public static FleetDescribe of(TableLocation root, TableStorageFactory storage, Map<CleanupOption, ?> policy, Instant now) {
    CleanupOption.requirePolicyOnly("describe_storage_all", policy.keySet());
    FleetDescribe fleet = new FleetDescribe(storage, policy, now);
    CleanupOption.applyTo(fleet.policyOf(root), policy, now);
    return fleet;
  }

  @Override
  public String operation() {
    return "describe_storage_all";
  }

  @Override
  public List<String> counterNames() {
    return StorageReport.totalNames();
  }

  @Override
  protected Map<String, Long> runLocally(TableLocation table) {
    return new LocalStorageReport(table, storage()).report(request(table)).totals();
  }

  /**
   * A table's report through an engine's own (its distributed stages), for {@link #through}:
   * {@code engine} reports on the table for the request.
   */
  public TableTask using(BiFunction<TableLocation, DatasetCleanup, StorageReport> engine) {
    return table -> engine.apply(table, request(table)).totals();
  }

  /** What the report on {@code table} is about: the cleanup this policy would run on it now. */
  private DatasetCleanup request(TableLocation table) {
    return CleanupOption.applyTo(policyOf(table), policy, now()).request();
  }

  private LocalCleanupAction policyOf(TableLocation table) {
    return new LocalCleanupAction(table, storage(), Clock.fixed(now(), ZoneOffset.UTC));
  }
}
