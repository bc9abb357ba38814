package dev.lancemaintenance.runs;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.storage.WriteWatchingStorage;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A storage that notes the plan's listing of {@code _versions/} as an event and opens {@code
 * planListed} then, for tests that hold one of a run's writes until its plan read the table; what
 * it writes or deletes goes to {@link #written}.
 */
abstract class PlanWatchingStorage extends WriteWatchingStorage {
  protected final List<String> events;
  private final CountDownLatch planListed;

  PlanWatchingStorage(TableStorage delegate, List<String> events, CountDownLatch planListed) {
    super(delegate);
    this.events = events;
    this.planListed = planListed;
  }

  @Override
  public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
    if (dir.equals("_versions")) {
      events.add("plan's listing");
      planListed.countDown();
    }
    return super.listFiles(dir, recursive);
  }
}
