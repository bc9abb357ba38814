package dev.lancemaintenance.benchmarks.jmh;

import dev.lancemaintenance.benchmarks.generate.CopyTree;
import dev.lancemaintenance.benchmarks.generate.GenerateTable;
import dev.lancemaintenance.benchmarks.generate.TableFiles;
import dev.lancemaintenance.benchmarks.generate.TableShape;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.Manifest;
import dev.lancemaintenance.format.ManifestLocation;
import dev.lancemaintenance.format.ManifestReader;
import dev.lancemaintenance.format.ReferenceScanner;
import dev.lancemaintenance.format.ScannedManifest;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Manifest decoding throughput: the full decode ({@link ManifestReader#read}) against the
 * file-naming view the mark stage uses ({@link ManifestReader#scan}), on the latest manifest of a
 * generated {@code large}-shaped table with {@code fragments} fragments. The file is read from the
 * page cache through the local store, as the engines read it; one operation is one manifest.
 *
 * <p>Run by hand (never in CI): {@code bin/benchmark jmh ManifestDecodeBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ManifestDecodeBenchmark {
  /** Fragments in the decoded manifest: 2,000 is the latest manifest of {@code large} before compaction. */
  @Param({"100", "2000"})
  public int fragments;

  private Path work;
  private TableStorage storage;
  private ManifestLocation manifest;

  @Setup(Level.Trial)
  public void generate() throws IOException {
    work = Files.createTempDirectory("manifest-decode");
    // Without the final compaction the latest manifest lists every appended fragment.
    TableShape shape = new TableShape("decode", fragments, 1, 0, 0, 0, 0, TableShape.Finish.AS_IS, 0, 0, 1.0);
    Path table = work.resolve("table");
    GenerateTable.generate(shape, table, TableFiles.DataMode.LINK);
    storage = new HadoopTableStorage(TableLocation.of(table.toString()), StorageConf.defaults());
    manifest = VersionListing.latest(storage, DatasetRef.MAIN).orElseThrow();
  }

  @TearDown(Level.Trial)
  public void delete() {
    storage.close();
    CopyTree.delete(work);
  }

  @Benchmark
  public Manifest read() {
    return ManifestReader.read(storage, manifest);
  }

  @Benchmark
  public ScannedManifest scan() {
    return ManifestReader.scan(storage, manifest, new ReferenceScanner(storage.location(), DatasetRef.MAIN));
  }
}
