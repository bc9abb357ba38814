package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.local.LocalCleanupAction;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Our reference engine, in this JVM, through a storage wrapper that counts the bytes it reads. */
final class LocalEngineCleanup implements Contender {
  @Override
  public String name() {
    return "local";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    AtomicLong bytesRead = new AtomicLong();
    StorageConf conf = StorageConf.of(table.hadoopOptions());
    new LocalCleanupAction(
            TableLocation.of(table.hadoopUri()),
            InstrumentedStorage.factory(HadoopTableStorage.factory(conf), bytesRead),
            Clock.systemUTC())
        // No age limit, as the SDK's policy: the version cutoff alone decides (our default is 7 days).
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .execute();
    return bytesRead.get();
  }
}
