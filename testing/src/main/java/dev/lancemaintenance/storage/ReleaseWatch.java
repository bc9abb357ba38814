package dev.lancemaintenance.storage;

import dev.lancemaintenance.testing.Latches;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * For tests of work that goes beside the table lease's release: notes the release in a run's
 * events, and holds a delete until the release was sent. A release that waited for a held delete
 * never comes, so the hold gives up after ten seconds and {@link #everyHeldDeleteSawTheRelease}
 * then fails the test.
 */
public final class ReleaseWatch {
  private final List<String> events;
  private final CountDownLatch released = new CountDownLatch(1);
  private final AtomicBoolean everyHoldSawTheRelease = new AtomicBoolean(true);

  /** @param events where {@code "release"} is added when the release is written */
  public ReleaseWatch(List<String> events) {
    this.events = events;
  }

  /** Call from a store's {@code createIfAbsent} once it created {@code path}: notes the release. */
  public void created(String path, byte[] content) {
    if (path.startsWith(TableLease.DIR + "/cleanup.lease.") && new String(content, StandardCharsets.UTF_8).contains("released=true")) {
      events.add("release");
      released.countDown();
    }
  }

  /** Waits until the release was sent (at most ten seconds); call from the delete to hold. */
  public void holdUntilReleased() {
    if (!Latches.awaitQuietly(released)) {
      everyHoldSawTheRelease.set(false);
    }
  }

  /** Whether the release went while every held delete waited. */
  public boolean everyHeldDeleteSawTheRelease() {
    return everyHoldSawTheRelease.get();
  }
}
