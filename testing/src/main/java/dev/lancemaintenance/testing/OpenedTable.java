package dev.lancemaintenance.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.lance.Dataset;
import org.lance.ReadOptions;
import org.lance.Ref;

/**
 * One SDK dataset handle with its own allocator, checked out on a branch or a version when asked,
 * closed together. Fixtures open one per verb so no native handle outlives a test step.
 */
final class OpenedTable implements AutoCloseable {
  private final BufferAllocator allocator;
  private final List<Dataset> handles = new ArrayList<>();

  private OpenedTable(BufferAllocator allocator) {
    this.allocator = allocator;
  }

  /** The latest version of {@code branch} (main when empty). */
  static OpenedTable latest(String uri, Optional<String> branch) {
    return latest(uri, branch, Map.of());
  }

  /** The same on an object store: {@code storageOptions} carry endpoint and credentials. */
  static OpenedTable latest(String uri, Optional<String> branch, Map<String, String> storageOptions) {
    return open(uri, branch.map(Ref::ofBranch), storageOptions);
  }

  /** Whatever {@code ref} names: a version of main or of a branch, a branch's latest, a tag. */
  static OpenedTable at(String uri, Ref ref) {
    return at(uri, ref, Map.of());
  }

  static OpenedTable at(String uri, Ref ref, Map<String, String> storageOptions) {
    return open(uri, Optional.of(ref), storageOptions);
  }

  private static OpenedTable open(String uri, Optional<Ref> checkout, Map<String, String> storageOptions) {
    OpenedTable table = new OpenedTable(new RootAllocator());
    try {
      ReadOptions options = new ReadOptions.Builder().setStorageOptions(storageOptions).build();
      Dataset main = table.keep(Dataset.open(table.allocator, uri, options));
      checkout.ifPresent(ref -> table.keep(main.checkout(ref)));
      return table;
    } catch (RuntimeException e) {
      table.close();
      throw e;
    }
  }

  Dataset dataset() {
    return handles.get(handles.size() - 1);
  }

  BufferAllocator allocator() {
    return allocator;
  }

  /** Takes ownership of a dataset the SDK returned (a commit result, a checkout). */
  Dataset keep(Dataset dataset) {
    handles.add(dataset);
    return dataset;
  }

  @Override
  public void close() {
    for (int i = handles.size() - 1; i >= 0; i--) {
      handles.get(i).close();
    }
    handles.clear();
    allocator.close();
  }
}
