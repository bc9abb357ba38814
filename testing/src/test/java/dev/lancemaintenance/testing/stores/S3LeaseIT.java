package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLease;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The table lease on S3 (s3proxy on 127.0.0.1 through s3a), on either Hadoop client (compat/hadoop-3.3
 * reruns it on 3.3.4). Create-if-absent is a conditional PUT, {@code If-None-Match: *}, which
 * hadoop-aws 3.4.2 sends and AWS S3 answers with 412 when the key exists. s3proxy 2.6.0 ignores
 * the header on PUT (last writer wins), so here the lease is the documented best effort: a run
 * that starts while another holds the lease is refused (the lease is seen by listing), but two
 * runs starting within the same moment can both win. s3a 3.3 has no conditional PUT (its {@code
 * createFile} refuses the option as an unknown mandatory key): there the lease is check-then-create
 * from the start, instead of failing every cleanup at its lease. The maintenance ledger ({@link
 * LedgerOnStoreContract}) runs here too: of two writers of one ledger generation the second
 * replaces the first's commit whole, so the ledger stays one writer's consistent view.
 */
class S3LeaseIT extends LeaseOnStoreContract {
  private static final String BUCKET = "lance-lease";
  @RegisterExtension static final S3Bucket S3 = new S3Bucket(BUCKET);

  @Override
  public StorageConf storageConf() {
    return S3.storageConf();
  }

  @Override
  String freshTable(String name) {
    S3Tables.writeCompactedHistory(S3.server(), BUCKET, name + ".lance");
    return S3.s3aUri(name + ".lance");
  }

  @Override
  public String emptyRoot(String name) {
    return S3.s3aUri("empty/" + name);
  }

  @Override
  public boolean createIfAbsentIsAtomic() {
    return false;
  }

  @Override
  public boolean secondCreateOverwrites() {
    return clientSendsConditionalPuts();
  }

  /** hadoop-aws 3.4.2 sends conditional PUTs; 3.3 (Spark 3.5's) has none. */
  private static boolean clientSendsConditionalPuts() {
    return !VersionInfo.getVersion().startsWith("3.3.");
  }

  @Test
  void aSecondCreateOverwritesWithConditionalPutsOnS3proxyAndSeesTheFirstWithout() {
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(emptyRoot("conditional")), storageConf())) {
      assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {1})).as("first create").isTrue();
      if (clientSendsConditionalPuts()) {
        // On AWS S3 this is a 412 and false; s3proxy 2.6.0 accepts the PUT.
        assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {2})).as("second create").isTrue();
        assertThat(storage.readFully(TableLease.DIR + "/once")).as("the second content won").containsExactly(2);
      } else {
        assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {2})).as("second create, seen by the check").isFalse();
        assertThat(storage.readFully(TableLease.DIR + "/once")).as("the first content stays").containsExactly(1);
      }
    }
  }

  @Test
  void withConditionalWritesSwitchedOffTheLeaseFallsBackToCheckThenCreate() {
    Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
    settings.put("fs.s3a.create.conditional.enabled", "false");
    try (TableStorage storage = new HadoopTableStorage(TableLocation.of(emptyRoot("unconditional")), StorageConf.of(settings))) {
      assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {1})).as("first create").isTrue();
      assertThat(storage.createIfAbsent(TableLease.DIR + "/once", new byte[] {2})).as("second create, seen by the check").isFalse();
    }
  }

  /**
   * The lease lists {@code _maintenance/} first thing in every run. On a table the ledger was
   * written to before its first lease, it holds only subdirectories: s3a's {@code listFiles} saw
   * no file there and probed the path (a HEAD, then a 2-key LIST), three requests in a row where
   * one answers.
   */
  @Test
  void aDirectoryHoldingOnlySubdirectoriesListsInOneRequestAndItsOwnFilesOnly() {
    Map<String, String> settings = new HashMap<>(S3.hadoopSettings());
    try (ThrottlingProxy counting = ThrottlingProxy.start(S3.endpoint(), Integer.MAX_VALUE)) {
      settings.put("fs.s3a.endpoint", counting.endpoint().toString());
      try (TableStorage storage = new HadoopTableStorage(TableLocation.of(emptyRoot("subdirectories")), StorageConf.of(settings))) {
        storage.write(TableLease.DIR + "/ledger/commit.0000000000000000001", new byte[] {1});
        storage.write(TableLease.DIR + "/runs/nested/record", new byte[] {1});

        long before = counting.requests();
        assertThat(storage.listFiles(TableLease.DIR, false)).toIterable().as("files directly in it").isEmpty();
        assertThat(counting.requests() - before).as("requests to list it").isEqualTo(1);

        storage.write(TableLease.DIR + "/cleanup.lease.0000000000000000001", new byte[] {1});
        assertThat(storage.listFiles(TableLease.DIR, false)).toIterable().extracting(FileEntry::path)
            .as("its own file, none of its subdirectories'").containsExactly(TableLease.DIR + "/cleanup.lease.0000000000000000001");
        assertThat(storage.listFiles("absent", false)).toIterable().as("a missing directory").isEmpty();
      }
    }
  }
}
