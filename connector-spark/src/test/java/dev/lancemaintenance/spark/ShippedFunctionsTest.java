package dev.lancemaintenance.spark;

import static dev.lancemaintenance.testing.JavaSerialization.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.CleanupPlan;
import dev.lancemaintenance.cleanup.plan.CleanupPlanner;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.plan.ManifestSlice;
import dev.lancemaintenance.cleanup.stage.MarkTask;
import dev.lancemaintenance.ledger.ManifestRun;
import dev.lancemaintenance.ledger.RunSummary;
import dev.lancemaintenance.ledger.VersionSummaries;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkManifests;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.TableStorageFactory;
import dev.lancemaintenance.testing.LanceTableFixture;
import dev.lancemaintenance.testing.OverwrittenHistory;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * What the Spark engine ships to executors survives Java serialization (Spark's closure
 * serializer) and still works on the other side: each function is round-tripped and then run.
 */
class ShippedFunctionsTest {
  @RegisterExtension static final SparkSessionPerClass SPARK = new SparkSessionPerClass();
  private static Broadcast<TableStorageFactory> factory;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    factory =
        JavaSparkContext.fromSparkContext(SPARK.session().sparkContext())
            .broadcast(HadoopTableStorage.factory(StorageConf.of(Map.of("fs.file.impl.disable.cache", "true"))));
  }

  private LanceTableFixture historyOfFourVersions() {
    return OverwrittenHistory.write(dir.resolve("t.lance"));
  }

  @Test
  void listFilesListsAfterTheTrip() throws Exception {
    LanceTableFixture table = historyOfFourVersions();

    ListFiles list = roundTrip(new ListFiles(factory, TableLocation.of(table.uri())));

    List<String> paths = new ArrayList<>();
    list.call(new ListingTask("data", true)).forEachRemaining(file -> paths.add(file.path()));
    assertThat(paths).containsExactlyInAnyOrderElementsOf(table.listFiles().stream().filter(p -> p.startsWith("data/")).toList())
        .hasSize(4);
  }

  @Test
  void sweepPartitionDeletesAfterTheTrip() throws Exception {
    LanceTableFixture table = historyOfFourVersions();
    String transaction = table.listFiles().stream().filter(p -> p.startsWith("_transactions/")).findFirst().orElseThrow();
    CandidateFile file = new CandidateFile(
        transaction, FileKind.TRANSACTION, table.resolve(transaction).toFile().length(), RemovalReason.EXPIRED_VERSION);

    SweepPartition sweep = roundTrip(new SweepPartition(factory, TableLocation.of(table.uri()), 0, null,
        dev.lancemaintenance.cleanup.engine.CleanupStage.SWEEP));

    CleanupCounters counters = sweep.call(List.of(file).iterator()).next();
    assertThat(counters).isEqualTo(CleanupCounters.ZERO.record(file));
    assertThat(table.resolve(transaction)).doesNotExist();
    assertThat(table.countRows()).as("the table still reads").isEqualTo(20);
  }

  @Test
  void decideFilesDecidesAfterTheTrip() throws Exception {
    DecideFiles decide = roundTrip(new DecideFiles(new DecisionContext(DatasetRef.MAIN, Long.MAX_VALUE, 0, false, 0), null, null, null));

    FileEntry file = new FileEntry("data/a.lance", 3, 1000);
    List<DecideFiles.Decision> decided = new ArrayList<>();
    decide.call(List.of(
            new Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<MarkState>>>(
                "data/a.lance", new Tuple2<>(List.of(file), List.of(MarkState.EXPIRED))),
            new Tuple2<String, Tuple2<Iterable<FileEntry>, Iterable<MarkState>>>(
                "data/gone.lance", new Tuple2<>(List.of(), List.of(MarkState.KEPT))))
        .iterator())
        .forEachRemaining(decided::add);
    assertThat(decided).containsExactly(
        new DecideFiles.Decision(new CandidateFile("data/a.lance", FileKind.DATA, 3, RemovalReason.EXPIRED_VERSION), null),
        new DecideFiles.Decision(null, UnlistedReferences.of("data/gone.lance")));
  }

  @Test
  void markSlicesMarksARealTableAfterTheTripAsTheStageDoesInProcess() throws Exception {
    LanceTableFixture table = historyOfFourVersions();
    TableLocation location = TableLocation.of(table.uri());
    CleanupPlan plan;
    List<SliceMarks> expected = new ArrayList<>();
    try (TableStorage storage = factory.value().open(location)) {
      plan = new CleanupPlanner(2).plan(storage, CleanupPolicy.builder().beforeVersion(3).build(), DatasetRef.MAIN, 1234);
      for (ManifestSlice slice : plan.slices()) {
        expected.add(SliceMarks.of(new MarkManifests(storage, plan.facts()).mark(slice)));
      }
    }
    assertThat(plan.slices()).hasSize(2);

    MarkSlices mark = roundTrip(new MarkSlices(factory, location, plan.facts()));

    List<SliceMarks> marked = new ArrayList<>();
    mark.call(MarkTask.decode(plan.slices()).iterator()).forEachRemaining(marked::add);
    assertThat(marked).isEqualTo(expected);
    assertThat(marked.get(0).expiredManifests()).as("versions 1 and 2 expire").hasSize(2);
    assertThat(marked.get(1).expiredManifests()).isEmpty();
  }

  @Test
  void summariseRunsSummarisesARealTableAfterTheTripAsInProcess() throws Exception {
    LanceTableFixture table = historyOfFourVersions();
    TableLocation location = TableLocation.of(table.uri());
    List<ManifestRun> runs;
    List<RunSummary> expected = new ArrayList<>();
    try (TableStorage storage = factory.value().open(location)) {
      CleanupPlan plan = new CleanupPlanner(2).plan(storage, CleanupPolicy.builder().beforeVersion(3).build(), DatasetRef.MAIN, 1234);
      runs = ManifestRun.cut(plan.slices().stream().flatMap(slice -> slice.manifests().stream()).toList(), 2);
      for (ManifestRun run : runs) {
        expected.add(new VersionSummaries(storage, DatasetRef.MAIN).summarise(run));
      }
    }
    SummariseRuns summarise = roundTrip(new SummariseRuns(factory, location, DatasetRef.MAIN));

    List<RunSummary> summarised = new ArrayList<>();
    for (ManifestRun run : runs) {
      summarised.add(summarise.call(roundTrip(run)));
    }
    assertThat(summarised).isEqualTo(expected);
    assertThat(summarised.get(1).versions()).as("the second run, based on the first's last manifest").hasSize(2);
  }

  @Test
  void retentionFactsSurviveTheTrip() {
    CleanupPolicy policy =
        CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-01T00:00:00Z")).retainLast(4).build();
    RetentionFacts facts =
        new RetentionFacts("file:/t", DatasetRef.branch("team/exp"), policy, 9, Map.of(3L, List.of("gold")), Set.of(2L), 1234);

    RetentionFacts shipped = roundTrip(facts);
    assertThat(shipped).isEqualTo(facts);
    assertThat(shipped.describe()).isEqualTo("branch team/exp of file:/t");
  }

  @Test
  void theDatasetOfASliceAndOfTheDecisionSurvivesTheTrip() {
    DatasetRef branch = DatasetRef.branch("team/exp");
    ManifestSlice slice = new ManifestSlice(ManifestSlice.SliceRole.BRANCH_READERS, branch, List.of());
    DecisionContext context = new DecisionContext(branch, 5, 0, false, 0);

    assertThat(roundTrip(slice).dataset()).isEqualTo(branch);
    assertThat(roundTrip(context)).isEqualTo(context);
    assertThat(roundTrip(context).keyOf("tree/team/exp/_indices/u1/part.idx")).isEqualTo("tree/team/exp/_indices/u1");
  }

  @Test
  void sliceMarksSurviveTheTrip() throws Exception {
    SliceMarks marks =
        new SliceMarks(
            List.of(new ReferenceMark("data/a.lance", FileKind.DATA, MarkState.KEPT)),
            List.of(new CandidateFile("_versions/1.manifest", FileKind.MANIFEST, 10, RemovalReason.EXPIRED_VERSION)),
            new MarkSummary(2, 1, 77, Map.of("gold", 3L)));

    assertThat(roundTrip(marks)).isEqualTo(marks);
  }

  @Test
  void maxDeletesQuotasCountAndCutPartitionsAfterTheTrip() throws Exception {
    List<CandidateFile> files = List.of(
        new CandidateFile("data/a.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION),
        new CandidateFile("data/b.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION),
        new CandidateFile("data/c.lance", FileKind.DATA, 1, RemovalReason.EXPIRED_VERSION));

    List<Long> counted = new ArrayList<>();
    roundTrip(new PartitionQuotas.CountFiles()).call(files.iterator()).forEachRemaining(counted::add);
    List<CandidateFile> taken = new ArrayList<>();
    roundTrip(new PartitionQuotas.TakeQuota(new long[] {5, 2})).call(1, files.iterator()).forEachRemaining(taken::add);

    assertThat(counted).containsExactly(3L);
    assertThat(taken).as("partition 1's quota of 2").containsExactlyElementsOf(files.subList(0, 2));
  }
}
