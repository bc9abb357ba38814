package dev.lancemaintenance.testing.stores;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.storage.DeleteRoute;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage.DeleteFailure;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * common's {@link HdfsCleanupIT} (our cleanup on HDFS leaves what Lance's leaves) on a 3.3
 * MiniDFSCluster through the 3.3 client, plus how that client deletes on the same cluster: it has
 * no {@code BulkDelete}, so one request per file, a page in flight at once, each result checked.
 */
class HdfsCleanupOnHadoop33IT extends HdfsCleanupIT {

  @Test
  void deletesAPageOfFilesOneRequestEachAndReportsWhatTheStoreRefused() {
    TableLocation location = TableLocation.of(hdfs.uri("/tables/pages"));
    try (HadoopTableStorage storage = new HadoopTableStorage(location, hdfs.storageConf())) {
      List<String> files = IntStream.range(0, 40).mapToObj(i -> "data/f" + i + ".lance").toList();
      files.forEach(f -> storage.write(f, f.getBytes(StandardCharsets.UTF_8)));
      // A non-empty directory: HDFS refuses a non-recursive delete of it.
      storage.write("data/refused/inner.lance", new byte[] {1});

      assertThat(storage.deleteRoute()).isEqualTo(DeleteRoute.PARALLEL_SINGLE);
      assertThat(storage.maxDeleteBatchSize()).as("files a page").isGreaterThan(files.size() + 2);
      List<String> page = new ArrayList<>(files);
      page.add("data/never-written.lance");
      page.add("data/refused");

      List<DeleteFailure> failures = storage.deleteBatch(page);

      assertThat(failures).extracting(DeleteFailure::path).as("refused by the store").containsExactly("data/refused");
      assertThat(failures.get(0).reason()).as("why").isNotBlank();
      assertThat(TableCopies.listFiles(location.toString(), hdfs.configuration()).keySet())
          .as("what is left").containsExactly("data/refused/inner.lance");
    }
  }
}
