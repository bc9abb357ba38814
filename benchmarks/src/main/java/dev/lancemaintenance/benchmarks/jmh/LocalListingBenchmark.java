package dev.lancemaintenance.benchmarks.jmh;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.VersionListing;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.LocalTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.util.Iterator;
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
 * The local listings of a daily run on a table already written (the page cache warm, nothing
 * changed between operations): {@link #walkNames} walks one managed directory as the list stage
 * does (names without attributes where the directory has no subdirectory), {@link
 * #versionsDirectory} lists {@code _versions/} as the plan does, every manifest's attributes read.
 * One operation is one whole listing; both only read.
 *
 * <p>Run by hand (never in CI): {@code bin/benchmark jmh LocalListingBenchmark -p
 * table=/tmp/lance-benchmarks/huge-steady-101010}; add {@code -prof gc} for allocation per listing.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LocalListingBenchmark {
  /** A table written by {@code bin/benchmark generate} or {@code run}. */
  @Param("/tmp/lance-benchmarks/huge-steady-101010")
  public String table;

  /** The managed directory {@link #walkNames} walks. */
  @Param("data")
  public String dir;

  private TableStorage storage;

  @Setup(Level.Trial)
  public void open() {
    storage = new LocalTableStorage(TableLocation.of(table), StorageConf.defaults());
  }

  @TearDown(Level.Trial)
  public void close() {
    storage.close();
  }

  /** The names of {@link #dir}, counted, with their lengths so that nothing is left unread. */
  @Benchmark
  public long walkNames() {
    long sum = 0;
    for (Iterator<FileEntry> names = storage.listFilesDeferringAttributes(dir, true); names.hasNext(); ) {
      sum += names.next().path().length();
    }
    return sum;
  }

  /** The plan's listing of {@code _versions/}: every file, its attributes, the committed versions sorted. */
  @Benchmark
  public int versionsDirectory() {
    return VersionListing.listDirectory(storage, DatasetRef.MAIN).manifests().size();
  }
}
