package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.format.FileKind;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key snapshot on the store: what is written reads back; a snapshot cut short or grown, with
 * any byte changed, another table's or dataset's, or absent gives no snapshot and says why (the run
 * then takes today's path); the newest generation is read and a write removes the older ones.
 */
class KeySnapshotFileTest {
  @TempDir Path dir;
  TableStorage storage;

  @BeforeEach
  void openStorage() {
    storage = new HadoopTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults());
  }

  @AfterEach
  void closeStorage() {
    storage.close();
  }

  /** Versions 1 to 4 over keys 0 to 39, some closed, some open, one key held by two elements. */
  static KeySnapshot snapshot(String fingerprint) {
    KeySnapshotTest.History history = new KeySnapshotTest.History(fingerprint);
    for (long v = 1; v <= 4; v++) {
      Set<LedgerElement> elements = new HashSet<>();
      for (int key = 0; key < 40; key++) {
        if ((key + v) % 3 != 0) {
          elements.add(KeySnapshotTest.element(key, FileKind.DATA));
        }
      }
      elements.add(KeySnapshotTest.element(7, FileKind.INDEX));
      history.add(v, elements);
    }
    return KeySnapshot.fromLedger(history.fold(), Set.of(2L, 3L, 4L)).orElseThrow();
  }

  private KeySnapshotFile.Read readNewest(String fingerprint) {
    return KeySnapshotFile.readNewest(storage, DatasetRef.MAIN, fingerprint);
  }

  @Test
  void whatIsWrittenReadsBackAndEveryPartitionHoldsItsShare() {
    KeySnapshot written = snapshot("f1");
    assertThat(KeySnapshotFile.write(storage, written)).isTrue();
    KeySnapshot read = readNewest("f1").snapshot().orElseThrow();
    assertThat(KeySnapshotFile.encode(read)).isEqualTo(KeySnapshotFile.encode(written));
    assertThat(read.versions()).isEqualTo(written.versions());
    assertThat(read.entries()).isEqualTo(40).isEqualTo(written.entries());
    assertThat(read.partitions().stream().filter(partition -> partition.size() > 0).count()).isGreaterThan(8);
  }

  @Test
  void aSnapshotOfLargePartitionsReadsBackAsWritten() {
    KeySnapshotTest.History history = new KeySnapshotTest.History("f1");
    Set<LedgerElement> elements = new HashSet<>();
    for (int key = 0; key < 100_000; key++) {
      elements.add(KeySnapshotTest.element(key, FileKind.DATA));
    }
    history.add(1, elements);
    KeySnapshot written = KeySnapshot.fromLedger(history.fold(), Set.of(1L)).orElseThrow();
    assertThat(written.partitions()).allSatisfy(partition ->
        assertThat(partition.size()).isGreaterThan(4_096));

    assertThat(KeySnapshotFile.write(storage, written)).isTrue();

    KeySnapshot read = readNewest("f1").snapshot().orElseThrow();
    assertThat(read.entries()).isEqualTo(100_000);
    assertThat(KeySnapshotFile.encode(read)).isEqualTo(KeySnapshotFile.encode(written));
  }

  @Test
  void theSnapshotIsReadInOneRequestAtItsListedLength() {
    assertThat(KeySnapshotFile.write(storage, snapshot("f1"))).isTrue();
    List<String> requests = Collections.synchronizedList(new ArrayList<>());
    TableStorage counting = (TableStorage) Proxy.newProxyInstance(getClass().getClassLoader(),
        new Class<?>[] {TableStorage.class}, (proxy, method, args) -> {
          if (method.isDefault()) {
            return InvocationHandler.invokeDefault(proxy, method, args); // its own calls are counted below
          }
          if (Set.of("read", "readFully", "length").contains(method.getName())) {
            requests.add(method.getName() + " " + args[0]);
          }
          try {
            return method.invoke(storage, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    LedgerDirectory listed = LedgerDirectory.list(storage, DatasetRef.MAIN);

    assertThat(KeySnapshotFile.readNewest(counting, listed, "f1").snapshot()).isPresent();
    // On an object store every ranged read is a round trip in the daily run's row.
    assertThat(requests).as("reads and status requests of the snapshot").singleElement().asString().startsWith("read ");
  }

  @Test
  void noSnapshotYetIsSaid() {
    assertThat(readNewest("f1").problem()).contains("no key snapshot yet");
  }

  @Test
  void aSnapshotCutShortAnywhereOrGrownIsRefused() throws Exception {
    byte[] bytes = KeySnapshotFile.encode(snapshot("f1"));
    for (int length = 0; length < bytes.length; length++) {
      KeySnapshotFile.Read read = readAsTheNewest(Arrays.copyOf(bytes, length));
      assertThat(read.snapshot()).as("cut to %d bytes", length).isEmpty();
      assertThat(read.problem()).as("cut to %d bytes", length).isPresent();
    }
    assertThat(readAsTheNewest(Arrays.copyOf(bytes, bytes.length + 25)).snapshot()).isEmpty();
    assertThat(readAsTheNewest(bytes).snapshot()).isPresent();
  }

  @Test
  void aSnapshotWithAnyByteChangedIsRefused() throws Exception {
    byte[] bytes = KeySnapshotFile.encode(snapshot("f1"));
    for (int at = 0; at < bytes.length; at++) {
      byte[] changed = bytes.clone();
      changed[at] ^= 0x04;
      assertThat(readAsTheNewest(changed).snapshot()).as("byte %d of %d changed", at, bytes.length).isEmpty();
    }
  }

  /** Reads {@code content} as the newest snapshot of table f1. */
  private KeySnapshotFile.Read readAsTheNewest(byte[] content) throws Exception {
    Path file = dir.resolve(KeySnapshotFile.pathOf(DatasetRef.MAIN, 1));
    Files.createDirectories(file.getParent());
    Files.write(file, content);
    return readNewest("f1");
  }

  @Test
  void anotherTablesOrDatasetsSnapshotIsRefused() {
    KeySnapshotFile.write(storage, snapshot("f2"));
    assertThat(readNewest("f1").problem()).hasValueSatisfying(why -> assertThat(why).contains("another table"));
    assertThat(KeySnapshotFile.readNewest(storage, DatasetRef.branch("b1"), "f2").problem()).contains("no key snapshot yet");
  }

  @Test
  void theNewestGenerationIsReadAndAWriteRemovesTheOlderOnes() throws Exception {
    KeySnapshotFile.write(storage, snapshot("f0"));
    KeySnapshotFile.write(storage, snapshot("f1"));
    assertThat(readNewest("f1").snapshot()).isPresent();
    try (Stream<Path> files = Files.list(dir.resolve(Ledger.dirOf(DatasetRef.MAIN)))) {
      assertThat(files.map(path -> path.getFileName().toString()).filter(name -> name.startsWith("keys.")))
          .containsExactly("keys.0000000000000000002");
    }
  }
}
