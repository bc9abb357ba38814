package dev.lancemaintenance.flink.maintenance.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** What the cleanup topology ships to subtasks survives Java serialization, as Flink ships it. */
class ShippedFunctionsTest {
  private static final TableLocation TABLE = TableLocation.of("file:/tmp/some-table");
  private static final CleanupPolicy POLICY =
      CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-01T00:00:00Z")).beforeVersion(9).build();
  private static final RetentionFacts FACTS =
      new RetentionFacts("file:/tmp/some-table", "", POLICY, 12, Map.of(3L, List.of("v3")), Set.of(4L), 1_000L);

  @Test
  void markFunctionKeepsItsRetentionFactsAcrossSerialization() throws Exception {
    MarkSlices copy = roundTrip(new MarkSlices(TABLE, HadoopTableStorage.factory(StorageConf.defaults()), FACTS));

    CheckGate<MarkSummary, DecisionContext> check = roundTrip(new CheckGate<>(CleanupRun.taggedVersionsGate(FACTS)));
    DecisionContext context = check.map(new MarkSummary(3, 1, 5_000_000L, Map.of()));

    assertThat(copy).isNotNull();
    assertThat(context).isEqualTo(new DecisionContext("", 5, FACTS.unverifiedThresholdMillis(), false, FACTS.guardThresholdMillis()));
  }

  @Test
  void referencedFilesCheckRefusesAfterTheTripNamingTheMissingFile() throws Exception {
    CheckGate<UnlistedReferences, UnlistedReferences> check =
        roundTrip(new CheckGate<>(CleanupRun.referencedFilesGate(FACTS)));

    assertThat(check.map(UnlistedReferences.NONE)).isEqualTo(UnlistedReferences.NONE);
    assertThatThrownBy(() -> check.map(UnlistedReferences.of("data/gone.lance")))
        .isInstanceOf(SuppressRestartsException.class)
        .hasRootCauseInstanceOf(MissingFilesException.class)
        .rootCause().hasMessageContaining("data/gone.lance").hasMessageContaining("file:/tmp/some-table");
  }

  @Test
  void policyWithBothBoundsSurvivesSerialization() throws Exception {
    assertThat(roundTrip(POLICY)).isEqualTo(POLICY);
    CleanupPolicy unbounded = CleanupPolicy.builder().deleteUnverified(true).build();
    assertThat(roundTrip(unbounded)).isEqualTo(unbounded);
  }

  @Test
  void sweepOperatorSurvivesSerialization() throws Exception {
    SweepFiles sweep =
        new SweepFiles(TABLE, HadoopTableStorage.factory(StorageConf.defaults()), 10, FileReport.EMIT);
    assertThat(roundTrip(sweep)).isNotNull();
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws Exception {
    byte[] bytes = InstantiationUtil.serializeObject(value);
    return (T) InstantiationUtil.deserializeObject(bytes, ShippedFunctionsTest.class.getClassLoader());
  }
}
