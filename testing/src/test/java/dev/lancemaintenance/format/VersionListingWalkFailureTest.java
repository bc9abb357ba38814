package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FailingWalk;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.ForwardingTableStorage;
import dev.lancemaintenance.storage.LocalTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.StorageException;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plan's listing of {@code _versions/} reads attributes beside its walk (VersionListing's
 * chunks): a walk that fails after some chunks were handed over fails the listing with the walk's
 * error, and the reader beside ends instead of waiting for chunks that never come.
 */
class VersionListingWalkFailureTest {
  @TempDir Path dir;

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void aWalkThatFailsMidwayFailsTheListingAndLeavesNoReaderWaiting() throws IOException {
    int manifests = 3 * VersionListing.CHUNK;
    Files.createDirectories(dir.resolve("_versions"));
    for (int version = 1; version <= manifests; version++) {
      Files.writeString(dir.resolve("_versions/" + version + ".manifest"), "m");
    }
    int failAfter = 2 * VersionListing.CHUNK + 5;
    StorageException broken = new StorageException("list", "_versions", new IOException("the disk went away"));
    try (TableStorage storage = new ForwardingTableStorage(new LocalTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults())) {
      @Override
      public Iterator<FileEntry> listFilesDeferringAttributes(String path, boolean recursive) {
        return FailingWalk.after(failAfter, broken, delegate().listFilesDeferringAttributes(path, recursive));
      }
    }) {
      assertThatThrownBy(() -> VersionListing.listDirectory(storage, DatasetRef.MAIN)).isSameAs(broken);
    }
    try (TableStorage whole = new LocalTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults())) {
      assertThat(VersionListing.listDirectory(whole, DatasetRef.MAIN).manifests()).as("the same directory, walked whole")
          .hasSize(manifests);
    }
  }
}
