package dev.lancemaintenance.format;

import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of tests that plant named files (no Lance content) in an empty table directory. */
abstract class PlantedFilesTest {
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

  void plant(String path) {
    storage.write(path, new byte[0]);
  }

  void plant(String path, String text) {
    storage.write(path, text.getBytes(StandardCharsets.UTF_8));
  }
}
