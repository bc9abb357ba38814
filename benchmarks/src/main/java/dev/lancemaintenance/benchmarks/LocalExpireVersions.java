package dev.lancemaintenance.benchmarks;

import dev.lancemaintenance.expire.ExpireVersionsAction;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorages;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code expire_versions} alone ({@code local-expire}), through the storage wrapper that counts the
 * bytes it reads: the manifests below {@code before_version} go and their files stay for the sweep,
 * so its {@code same} column reads {@code no} by design; what it measures is that it reads only the
 * manifests it expires (compare {@code meta read} with their bytes) and how long that takes.
 */
final class LocalExpireVersions implements Contender {
  @Override
  public String name() {
    return "local-expire";
  }

  @Override
  public long clean(Table table, long beforeVersion) {
    AtomicLong bytesRead = new AtomicLong();
    new ExpireVersionsAction(
            TableLocation.of(table.hadoopUri()),
            InstrumentedStorage.factory(TableStorages.factory(StorageConf.of(table.hadoopOptions())), bytesRead),
            Clock.systemUTC())
        .olderThan(Duration.ZERO)
        .beforeVersion(beforeVersion)
        .execute();
    return bytesRead.get();
  }
}
