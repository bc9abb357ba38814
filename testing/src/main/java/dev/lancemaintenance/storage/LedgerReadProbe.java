package dev.lancemaintenance.storage;

import dev.lancemaintenance.ledger.Ledger;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tells whether a run reads its ledger beside the plan's listing of {@code _versions/}: every
 * listing of {@code _versions/} (the plan's walk, which the list stage reuses) waits until
 * something lists the ledger's directory, or {@link #WAIT} has passed. A run that reads
 * the ledger on its own thread lets the listing go at once; one that reads it in line, after the
 * plan, makes every such listing wait the whole time and be counted as {@link Outcome#unanswered}.
 *
 * <p>A factory that survives serialisation, for engines that ship it to their tasks in this JVM
 * (Spark local mode, a Flink MiniCluster): every storage it opens reports to the {@link Outcome}
 * {@link #outcome} returns for its name.
 */
public record LedgerReadProbe(String name) implements TableStorageFactory {
  /** Long enough for a loaded machine to start a thread; a failing run waits it once per listing. */
  static final long WAIT = TimeUnit.SECONDS.toMillis(20);
  private static final Map<String, Outcome> OUTCOMES = new ConcurrentHashMap<>();

  /** What the listings of {@code _versions/} of the probe {@code name} found. */
  public static Outcome outcome(String name) {
    return OUTCOMES.computeIfAbsent(name, n -> new Outcome());
  }

  @Override
  public TableStorage open(TableLocation location) {
    Outcome outcome = outcome(name);
    return new ForwardingTableStorage(new HadoopTableStorage(location, StorageConf.defaults())) {
      @Override
      public Iterator<FileEntry> listFiles(String dir, boolean recursive) {
        if (dir.startsWith(Ledger.DIR)) {
          outcome.ledgerListed.countDown();
        } else if (dir.equals("_versions")) {
          outcome.awaitLedger();
        }
        return super.listFiles(dir, recursive);
      }
    };
  }

  /** The listings of {@code _versions/} that found the ledger being read, and those that waited in vain. */
  public static final class Outcome {
    private final CountDownLatch ledgerListed = new CountDownLatch(1);
    private final AtomicInteger answered = new AtomicInteger();
    private final AtomicInteger unanswered = new AtomicInteger();

    private void awaitLedger() {
      try {
        (ledgerListed.await(WAIT, TimeUnit.MILLISECONDS) ? answered : unanswered).incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        unanswered.incrementAndGet();
      }
    }

    /** Listings of {@code _versions/} during which the ledger's directory was listed. */
    public int answered() {
      return answered.get();
    }

    /** Listings of {@code _versions/} that waited {@link #WAIT} without the ledger being listed. */
    public int unanswered() {
      return unanswered.get();
    }
  }
}
