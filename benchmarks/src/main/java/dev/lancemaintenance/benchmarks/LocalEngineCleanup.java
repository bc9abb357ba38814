package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Our reference engine, in this JVM, through a storage wrapper that counts (and may delay) reads. */
final class LocalEngineCleanup implements Contender {
  private final Duration latency;

  LocalEngineCleanup(Duration latency) {
    this.latency = latency;
  }

  @Override
  public String name() {
    return latency.isZero() ? "local" : "local+" + latency.toMillis() + "ms";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    AtomicLong bytesRead = new AtomicLong();
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    new LocalCleanupAction(
            TableLocation.of(table.hadoopUri()),
            InstrumentedStorage.factory(HadoopTableStorage.factory(conf), latency, bytesRead),
            Clock.systemUTC())
        // No age limit, as the SDK's policy: the version cutoff alone decides (our default is 7 days).
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .execute();
    return bytesRead.get();
  }
}
