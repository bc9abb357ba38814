package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import dev.lancemaintenance.storage.LocalTableStorage;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The split finds every fragment, in order, however many the manifest holds for its size: the
 * arrays are sized from the message's length ({@link SplitManifest#initialCapacity}) and grow past
 * that guess for fragments smaller than it, as from the old start of 16.
 */
class SplitManifestTest {
  @TempDir Path dir;

  @Test
  void findsEveryFragmentOfAManifestOfManyTinyFragmentsBeyondTheGuessedCapacity() throws IOException {
    List<byte[]> fragments = new ArrayList<>();
    for (int index = 0; index < 3_000; index++) {
      fragments.add(new byte[] {8, (byte) (index & 0x7f)}); // field 1, a varint: 4 bytes a fragment with its tag
    }
    SplitManifest split = split(fragments);
    assertThat(SplitManifest.initialCapacity(4 * fragments.size())).isLessThan(fragments.size());
    assertThatFragmentsAre(split, fragments);
  }

  @Test
  void findsEveryFragmentOfAManifestOfLargeFragments() throws IOException {
    List<byte[]> fragments = new ArrayList<>();
    for (int index = 0; index < 40; index++) {
      byte[] fragment = new byte[700];
      fragment[0] = 10; // field 1, length-delimited
      fragment[1] = (byte) 0xb9; // 697 as a varint
      fragment[2] = 5;
      fragment[3] = (byte) index;
      fragments.add(fragment);
    }
    assertThatFragmentsAre(split(fragments), fragments);
  }

  private static void assertThatFragmentsAre(SplitManifest split, List<byte[]> fragments) {
    assertThat(split.fragmentCount()).isEqualTo(fragments.size());
    for (int index = 0; index < fragments.size(); index++) {
      assertThat(split.fragment(index).toByteArray()).as("fragment %d", index).isEqualTo(fragments.get(index));
    }
    assertThat(split.view().getSchemaFieldsList()).containsExactly(ByteString.copyFromUtf8("before"),
        ByteString.copyFromUtf8("after"));
  }

  /** A manifest file of a schema field, the fragments and another schema field, split as the reader splits it. */
  private SplitManifest split(List<byte[]> fragments) throws IOException {
    ByteArrayOutputStream message = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(message);
    out.writeBytes(1, ByteString.copyFromUtf8("before"));
    for (byte[] fragment : fragments) {
      out.writeByteArray(2, fragment);
    }
    out.writeBytes(1, ByteString.copyFromUtf8("after"));
    out.flush();
    byte[] body = message.toByteArray();
    ByteBuffer file = ByteBuffer.allocate(Integer.BYTES + body.length + ManifestFooter.LENGTH).order(ByteOrder.LITTLE_ENDIAN);
    file.putInt(body.length).put(body).putLong(0).putShort((short) 0).putShort((short) 2)
        .put("LANC".getBytes(StandardCharsets.US_ASCII));
    Path versions = Files.createDirectories(dir.resolve("_versions"));
    Files.write(versions.resolve("1.manifest"), file.array());
    try (LocalTableStorage storage = new LocalTableStorage(TableLocation.of(dir.toString()), StorageConf.defaults())) {
      ManifestFile manifest = ManifestFile.open(storage,
          new ManifestLocation("_versions/1.manifest", 1, file.capacity(), 0, ManifestNaming.V1));
      return SplitManifest.split(manifest, manifest.manifestBytes());
    }
  }
}
