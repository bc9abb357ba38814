package dev.lancemaintenance.cleanup.engine;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * What a run opened (the local engine's: its storage, the ledger's read ahead, the walks, the
 * spills, the pool), closed last opened first, as a try-with-resources block closes them: the pool
 * stops before the walks its tasks read end, and those before the spills and the storage. Kept as
 * one object so that a run that ended well can hand its closes over to be done beside its end
 * record ({@link BaseCleanupAction#closeBesideTheEndRecord}), and one that failed closes them at
 * once, each failure added to the run's. Added to on one thread and closed on another after it.
 */
public final class RunCloses implements AutoCloseable {
  private final Deque<AutoCloseable> opened = new ConcurrentLinkedDeque<>();

  /** {@code resource}, to be closed before everything opened earlier. */
  public <T extends AutoCloseable> T add(T resource) {
    opened.push(resource);
    return resource;
  }

  /** Closes everything, last opened first; throws the first failure, the others suppressed in it. */
  @Override
  public void close() {
    RuntimeException failure = null;
    for (AutoCloseable resource = opened.pollFirst(); resource != null; resource = opened.pollFirst()) {
      try {
        resource.close();
      } catch (Exception e) {
        RuntimeException unchecked = e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
        if (failure == null) {
          failure = unchecked;
        } else {
          failure.addSuppressed(unchecked);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Closes everything after the run failed with {@code failure}, adding any failure of the closes to it. */
  public void closeAfter(Throwable failure) {
    try {
      close();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
    }
  }
}
