package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.proto.TableProtos;
import dev.lancemaintenance.storage.HadoopTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real manifests, damaged on purpose: every damage is a typed error that names the file. */
class ManifestCorruptionIT {
  @TempDir Path dir;
  private LanceTableFixture table;
  private TableStorage storage;
  private Path latestFile;
  private String latestPath;
  private byte[] original;

  @BeforeEach
  void writeTable() throws IOException {
    table = LanceTableFixture.create(dir.resolve("t"));
    table.append(10);
    table.append(10);
    storage = new HadoopTableStorage(TableLocation.of(table.uri()), StorageConf.defaults());
    latestPath = VersionListing.latest(storage, DatasetRef.MAIN).orElseThrow().path();
    latestFile = table.resolve(latestPath);
    original = Files.readAllBytes(latestFile);
  }

  @AfterEach
  void close() {
    storage.close();
  }

  private Manifest readLatest() {
    return ManifestReader.read(storage, VersionListing.latest(storage, DatasetRef.MAIN).orElseThrow());
  }

  private void rewrite(byte[] content) throws IOException {
    Files.write(latestFile, content);
  }

  private long manifestPosition() {
    return ByteBuffer.wrap(original, original.length - 16, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
  }

  @Test
  void readsTheUndamagedManifest() {
    assertThat(readLatest().version()).isEqualTo(2);
  }

  @Test
  void failsNamingACutManifest() throws IOException {
    rewrite(Arrays.copyOf(original, original.length / 2));

    assertThatThrownBy(this::readLatest).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("bad magic");
  }

  @Test
  void failsNamingAManifestShorterThanItsFooter() throws IOException {
    rewrite(Arrays.copyOf(original, 10));

    assertThatThrownBy(this::readLatest).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("truncated");
  }

  @Test
  void failsNamingAManifestWithABadMagic() throws IOException {
    byte[] damaged = original.clone();
    damaged[damaged.length - 1] = 'X';
    rewrite(damaged);

    assertThatThrownBy(this::readLatest).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("does not end with LANC");
  }

  @Test
  void failsNamingAManifestWhoseLengthMissesTheFooter() throws IOException {
    byte[] damaged = original.clone();
    int position = (int) manifestPosition();
    damaged[position] = (byte) (damaged[position] + 1);
    rewrite(damaged);

    assertThatThrownBy(this::readLatest).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("does not end at the footer");
  }

  @Test
  void failsNamingAManifestWhoseProtobufDoesNotParse() throws IOException {
    byte[] damaged = original.clone();
    // Keep the framing, spoil the message: 0xFF bytes form a varint that never ends.
    Arrays.fill(damaged, (int) manifestPosition() + 4, damaged.length - 16, (byte) 0xFF);
    rewrite(damaged);

    assertThatThrownBy(this::readLatest).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("not a valid protobuf");
  }

  @Test
  void acceptsAnUnknownMinorVersionWhenTheLayoutChecksOut() throws IOException {
    byte[] changed = original.clone();
    changed[changed.length - 6] = 9;
    rewrite(changed);

    assertThat(readLatest().version()).isEqualTo(2);
  }

  @Test
  void refusesAnUnknownMajorVersion() throws IOException {
    byte[] changed = original.clone();
    changed[changed.length - 8] = 1;
    rewrite(changed);

    assertThatThrownBy(this::readLatest).isInstanceOf(UnsupportedFeatureException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("manifest format version 1.");
  }

  @Test
  void refusesAReaderFeatureFlagItDoesNotUnderstand() throws IOException {
    // Data overlays (64) reference files this reader does not track.
    int position = (int) manifestPosition();
    TableProtos.Manifest manifest = TableProtos.Manifest.parseFrom(
        Arrays.copyOfRange(original, position + 4, original.length - 16));
    byte[] body = manifest.toBuilder().setReaderFeatureFlags(64 | 1).build().toByteArray();
    ByteBuffer rebuilt = ByteBuffer.allocate(position + 4 + body.length + 16).order(ByteOrder.LITTLE_ENDIAN);
    rebuilt.put(original, 0, position).putInt(body.length).put(body).put(original, original.length - 16, 16);
    rewrite(rebuilt.array());

    assertThatThrownBy(this::readLatest).isInstanceOf(UnsupportedFeatureException.class)
        .hasMessageContaining(latestPath).hasMessageContaining("reader feature flags 64 (all reader flags: 65)");
  }

  @Test
  void failsNamingAVersionFileWhoseNameIsNotANumber() {
    table.plant("_versions/abc.manifest", original, java.time.Instant.now());

    assertThatThrownBy(() -> VersionListing.list(storage, DatasetRef.MAIN)).isInstanceOf(CorruptTableException.class)
        .hasMessageContaining("_versions/abc.manifest");
  }
}
