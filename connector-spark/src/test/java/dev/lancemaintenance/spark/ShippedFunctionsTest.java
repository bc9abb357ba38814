package dev.lancemaintenance.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CandidateFile;
import dev.lancemaintenance.cleanup.CleanupCounters;
import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.RemovalReason;
import dev.lancemaintenance.cleanup.plan.ListingTask;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.cleanup.stage.MarkState;
import dev.lancemaintenance.cleanup.stage.UnlistedReferences;
import dev.lancemaintenance.cleanup.stage.MarkSummary;
import dev.lancemaintenance.cleanup.stage.ReferenceMark;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorageFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import scala.Tuple2;

/**
 * What the Spark engine ships to executors survives Java serialization (Spark's closure
 * serializer) and still works on the other side: each function is round-tripped and then run.
 */
class ShippedFunctionsTest {
  private static SparkSession spark;
  private static Broadcast<TableStorageFactory> factory;

  @TempDir Path dir;

  @BeforeAll
  static void startSpark() {
    spark = SparkTestSession.start();
    factory =
        JavaSparkContext.fromSparkContext(spark.sparkContext())
            .broadcast(HadoopTableStorage.factory(StorageConf.of(Map.of("fs.file.impl.disable.cache", "true"))));
  }

  @AfterAll
  static void stopSpark() {
    spark.stop();
  }

  @SuppressWarnings("unchecked")
  private static <T> T roundTrip(T value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    }
  }

  private TableLocation tableWith(String... files) throws IOException {
    for (String file : files) {
      Path path = dir.resolve(file);
      Files.createDirectories(path.getParent());
      Files.write(path, new byte[] {1, 2, 3});
    }
    return TableLocation.of(dir.toString());
  }

  @Test
  void listFilesListsAfterTheTrip() throws Exception {
    TableLocation table = tableWith("data/a.lance", "data/b.lance");

    ListFiles list = roundTrip(new ListFiles(factory, table));

    List<String> paths = new ArrayList<>();
    list.call(new ListingTask("data", true)).forEachRemaining(file -> paths.add(file.path()));
    assertThat(paths).containsExactlyInAnyOrder("data/a.lance", "data/b.lance");
  }

  @Test
  void sweepPartitionDeletesAfterTheTrip() throws Exception {
    TableLocation table = tableWith("data/a.lance");

    SweepPartition sweep = roundTrip(new SweepPartition(factory, table, 0));

    CleanupCounters counters =
        sweep.call(List.of(new CandidateFile("data/a.lance", FileKind.DATA, 3, RemovalReason.EXPIRED_VERSION)).iterator()).next();
    assertThat(counters.dataFilesRemoved()).isEqualTo(1);
    assertThat(dir.resolve("data/a.lance")).doesNotExist();
  }

  @Test
  void decideFilesDecidesAfterTheTrip() throws Exception {
    DecideFiles decide = roundTrip(new DecideFiles(new DecisionContext("", Long.MAX_VALUE, 0, false, 0)));

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
  void markSlicesAndItsFactsSurviveTheTrip() throws Exception {
    CleanupPolicy policy = CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-01T00:00:00Z")).build();
    RetentionFacts facts = new RetentionFacts("file:/t", "", policy, 9, Map.of(3L, List.of("gold")), Set.of(2L), 1234);

    MarkSlices mark = roundTrip(new MarkSlices(factory, TableLocation.of(dir.toString()), facts));

    assertThat(mark.call(List.<dev.lancemaintenance.cleanup.plan.ManifestSlice>of().iterator()).hasNext()).isFalse();
    assertThat(roundTrip(facts)).isEqualTo(facts);
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
}
