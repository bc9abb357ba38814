package dev.lancemaintenance.flink.maintenance.operator;

import static dev.lancemaintenance.testing.JavaSerialization.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.engine.CleanupStage;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.MissingFilesException;
import dev.lancemaintenance.cleanup.engine.CleanupRun;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkResult;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OverwrittenHistory;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedBroadcastOperatorTestHarness;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the cleanup topology ships to subtasks survives Java serialization, as Flink ships it, and
 * still does its stage's work on the other side: each function is round-tripped, then run in
 * Flink's operator test harness on a real table where it needs one.
 */
class ShippedFunctionsTest {
  @TempDir Path dir;

  private static final CleanupPolicy POLICY =
      CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-01T00:00:00Z")).beforeVersion(9).build();
  private static final RetentionFacts FACTS =
      new RetentionFacts("file:/tmp/some-table", DatasetRef.MAIN, POLICY, 12, Map.of(3L, List.of("v3")), Set.of(4L), 1_000L);

  @Test
  void markFunctionMarksARealTableAfterTheTripAsTheStageDoesInProcess() throws Exception {
    LanceTableFixture fixture = historyOfFourVersions();
    TableLocation table = TableLocation.of(fixture.uri());
    CleanupPlan plan;
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(table)) {
      plan = new CleanupPlanner().plan(storage, CleanupPolicy.builder().beforeVersion(3).build(), DatasetRef.MAIN, 1_000L);
    }
    MarkTask slice = new MarkTask.DecodeSlice(plan.slices().get(0));
    MarkResult expected;
    try (TableStorage storage = HadoopTableStorage.factory(StorageConf.defaults()).open(table)) {
      expected = slice.mark(storage, plan.facts());
    }

    MarkSlices copy = roundTrip(new MarkSlices(table, HadoopTableStorage.factory(StorageConf.defaults()), plan.facts(), plan.manifestCount()));
    try (OneInputStreamOperatorTestHarness<MarkTask, ReferenceMark> harness =
        ProcessFunctionTestHarnesses.forProcessFunction(copy)) {
      harness.processElement(slice, 0);

      assertThat(harness.extractOutputValues()).containsExactlyInAnyOrderElementsOf(expected.marks());
      assertThat(harness.extractOutputValues()).extracting(ReferenceMark::state).contains(MarkState.EXPIRED, MarkState.KEPT);
      assertThat(harness.getSideOutput(MarkSlices.EXPIRED_MANIFESTS)).extracting(StreamRecord::getValue)
          .containsExactlyElementsOf(expected.expiredManifests())
          .hasSize(2);
      assertThat(harness.getSideOutput(MarkSlices.SUMMARIES)).extracting(StreamRecord::getValue)
          .containsExactly(expected.summary());
    }
  }

  @Test
  void taggedVersionsCheckDecidesFromItsFactsAfterTheTrip() throws Exception {
    CheckGate<MarkSummary, DecisionContext> check = roundTrip(new CheckGate<>(CleanupRun.taggedVersionsGate(FACTS)));
    DecisionContext context = check.map(new MarkSummary(3, 1, 5_000_000L, Map.of()));

    assertThat(context).isEqualTo(new DecisionContext(DatasetRef.MAIN, 5, FACTS.unverifiedThresholdMillis(), false, FACTS.guardThresholdMillis()));
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
  void decidedFilesGatePassesFilesOnlyAfterTheCheckAfterTheTrip() throws Exception {
    CandidateFile file = new CandidateFile("data/old.lance", FileKind.DATA, 3, RemovalReason.EXPIRED_VERSION);
    try (var early = gate()) {
      assertThatThrownBy(() -> early.processElement(file, 0))
          .hasStackTraceContaining("Cannot clean up file:/tmp/some-table: data/old.lance reached its gate before the "
              + CleanupTopology.CHECKED_STATE.getName());
    }
    try (var unchecked = gate()) {
      // The referenced-files gate (CheckGate) fails the job; this gate only never lets a file through.
      unchecked.processBroadcastElement(UnlistedReferences.of("data/gone.lance"), 0);
      unchecked.processElement(file, 0);
      assertThat(unchecked.extractOutputValues()).as("files released with a missing reference").isEmpty();
    }
    try (var checked = gate()) {
      checked.processBroadcastElement(UnlistedReferences.NONE, 0);
      checked.processElement(file, 0);
      assertThat(checked.extractOutputValues()).containsExactly(file);
    }
  }

  private static KeyedBroadcastOperatorTestHarness<String, CandidateFile, UnlistedReferences, CandidateFile> gate()
      throws Exception {
    return ProcessFunctionTestHarnesses.forKeyedBroadcastProcessFunction(
        roundTrip(new ReleaseGate<>(
            "file:/tmp/some-table", CleanupTopology.CHECKED_STATE, unlisted -> unlisted.count() == 0, CleanupStage.SWEEP)),
        CandidateFile::path, Types.STRING, CleanupTopology.CHECKED_STATE);
  }

  @Test
  void capPassesTheBudgetOnAndDefersTheRestAfterTheTrip() throws Exception {
    CandidateFile a = new CandidateFile("data/a.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION);
    CandidateFile b = new CandidateFile("data/b.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION);
    CandidateFile c = new CandidateFile("data/c.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION);
    try (var cap = ProcessFunctionTestHarnesses.forBroadcastProcessFunction(
        roundTrip(new CapDeletes<>("file:/tmp/some-table", CleanupTopology.CAP_MANIFESTS_STATE,
            fileCounters -> CleanupRun.manifestBudget(3, fileCounters))),
        CleanupTopology.CAP_MANIFESTS_STATE)) {
      cap.processBroadcastElement(CleanupCounters.ZERO.record(a), 0);
      cap.processElement(a, 0);
      cap.processElement(b, 0);
      cap.processElement(c, 0);

      assertThat(cap.extractOutputValues()).as("what max_deletes 3 leaves after one file").containsExactly(a, b);
      assertThat(cap.getSideOutput(CapDeletes.DEFERRED)).extracting(StreamRecord::getValue)
          .containsExactly(CleanupCounters.ZERO.deferred(1));
    }
  }

  @Test
  void policyWithBothBoundsSurvivesSerialization() throws Exception {
    assertThat(roundTrip(POLICY)).isEqualTo(POLICY);
    CleanupPolicy unbounded = CleanupPolicy.builder().deleteUnverified(true).build();
    assertThat(roundTrip(unbounded)).isEqualTo(unbounded);
    CleanupPolicy retaining = CleanupPolicy.builder().retainLast(3).build();
    assertThat(roundTrip(retaining)).isEqualTo(retaining);
  }

  @Test
  void sweepOperatorDeletesAndCountsAfterTheTrip() throws Exception {
    LanceTableFixture fixture = historyOfFourVersions();
    String transaction = fixture.listFiles().stream().filter(p -> p.startsWith("_transactions/")).findFirst().orElseThrow();
    CandidateFile file = new CandidateFile(
        transaction, FileKind.TRANSACTION, fixture.resolve(transaction).toFile().length(), RemovalReason.EXPIRED_VERSION);
    SweepFiles sweep = roundTrip(new SweepFiles(
        TableLocation.of(fixture.uri()), HadoopTableStorage.factory(StorageConf.defaults()), 10, FileReport.EMIT,
        null, CleanupStage.SWEEP));

    try (OneInputStreamOperatorTestHarness<CandidateFile, RunOutput> harness = new OneInputStreamOperatorTestHarness<>(sweep)) {
      harness.open();
      harness.processElement(file, 0);
      harness.endInput();

      assertThat(harness.extractOutputValues())
          .containsExactly(RunOutput.of(file), RunOutput.of(CleanupCounters.ZERO.record(file)));
    }
    assertThat(fixture.resolve(transaction)).doesNotExist();
    assertThat(fixture.countRows()).as("the table still reads").isEqualTo(20);
  }

  private LanceTableFixture historyOfFourVersions() {
    return OverwrittenHistory.write(dir.resolve("t.lance"));
  }

  @Test
  void theDatasetOfASliceAndOfTheDecisionSurvivesFlinksSerializers() throws Exception {
    DatasetRef branch = DatasetRef.branch("team/exp");
    ManifestSlice slice = new ManifestSlice(ManifestSlice.SliceRole.BRANCH_READERS, branch, List.of());
    DecisionContext context = new DecisionContext(branch, 5, 0, false, 0);

    MarkTask shippedTask = throughSerializer(CleanupTypes.MARK_TASK, new MarkTask.DecodeSlice(slice));
    assertThat(((MarkTask.DecodeSlice) shippedTask).slice().dataset()).isEqualTo(branch);
    DecisionContext shipped = throughSerializer(CleanupTypes.CONTEXT, context);
    assertThat(shipped).isEqualTo(context);
    assertThat(shipped.keyOf("tree/team/exp/_indices/u1/part.idx")).isEqualTo("tree/team/exp/_indices/u1");
  }

  /** A record written and read by the serializer Flink uses between subtasks for its declared type. */
  private static <T> T throughSerializer(TypeInformation<T> type, T value) throws IOException {
    TypeSerializer<T> serializer = type.createSerializer(new SerializerConfigImpl());
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(value, out);
    return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
  }
}
