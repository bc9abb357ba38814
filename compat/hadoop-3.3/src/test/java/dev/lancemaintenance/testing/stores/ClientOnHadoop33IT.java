package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.DeleteRoute;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What this module proves rests on its class path: the Hadoop client is the 3.3 line Spark 3.5
 * ships, without the 3.4.1 {@code BulkDelete} API, and common (compiled against 3.4.2) still reads
 * and deletes through it. Before the fix, the first ranged read here failed with {@code
 * NoSuchMethodError: FutureDataInputStreamBuilder.opt(String, long)}.
 */
class ClientOnHadoop33IT {
  @TempDir Path table;

  @Test
  void theClientIsHadoop33WithoutBulkDelete() {
    assertThat(VersionInfo.getVersion()).as("Hadoop client version").startsWith("3.3.");
    assertThat(getClass().getClassLoader().getResource("org/apache/hadoop/fs/BulkDelete.class"))
        .as("Hadoop 3.4.1's BulkDelete on the class path").isNull();
  }

  @Test
  void readsAndDeletesALocalTable() throws Exception {
    Files.createDirectories(table.resolve("_versions"));
    Files.writeString(table.resolve("_versions/1.manifest"), "0123456789");
    try (HadoopTableStorage storage =
        new HadoopTableStorage(TableLocation.of(table.toUri().toString()), StorageConf.defaults())) {
      assertThat(storage.read("_versions/1.manifest", 2, 3)).asString(StandardCharsets.UTF_8).isEqualTo("234");
      assertThat(storage.readFully("_versions/1.manifest")).asString(StandardCharsets.UTF_8).isEqualTo("0123456789");

      assertThat(storage.deleteRoute()).isEqualTo(DeleteRoute.LOCAL);
      assertThat(storage.deleteBatch(java.util.List.of("_versions/1.manifest"))).isEmpty();
      assertThat(table.resolve("_versions/1.manifest")).doesNotExist();
    }
  }
}
