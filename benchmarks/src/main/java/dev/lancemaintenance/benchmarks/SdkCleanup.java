package dev.lancemaintenance.benchmarks;

import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.cleanup.CleanupPolicy;

/** The baseline: the official Java SDK's {@code cleanupWithPolicy}, opening the table each run. */
final class SdkCleanup implements Contender {
  /** One cleanup in a process of its own ({@code sdk-cold}): {@code <table-dir> <before-version>}. */
  public static void main(String[] args) {
    new SdkCleanup().clean(Table.local(Path.of(args[0])), Long.parseLong(args[1]));
  }

  @Override
  public String name() {
    return "sdk";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    ReadOptions options = new ReadOptions.Builder().setStorageOptions(table.lanceOptions()).build();
    try (BufferAllocator allocator = new RootAllocator();
        Dataset dataset = Dataset.open(allocator, table.lanceUri(), options)) {
      dataset.cleanupWithPolicy(CleanupPolicy.builder().withBeforeVersion(beforeVersion).build());
    }
    // Native reads are invisible to the JVM; the process read counter shows them.
    return -1;
  }
}
