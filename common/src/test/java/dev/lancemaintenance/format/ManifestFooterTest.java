package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ManifestFooterTest {

  private static byte[] footer(long position, int major, int minor, String magic) {
    return ByteBuffer.allocate(ManifestFooter.LENGTH).order(ByteOrder.LITTLE_ENDIAN)
        .putLong(position).putShort((short) major).putShort((short) minor)
        .put(magic.getBytes(StandardCharsets.US_ASCII)).array();
  }

  @Test
  void readsPositionAndVersionLittleEndian() {
    assertThat(ManifestFooter.parse(footer(130, 0, 2, "LANC"), 0))
        .contains(new ManifestFooter(130, 0, 2));
  }

  @Test
  void reportsAMissingMagic() {
    assertThat(ManifestFooter.parse(footer(130, 0, 2, "LANX"), 0)).isEmpty();
  }

  @Test
  void expectsTheManifestToEndWhereTheFooterBegins() {
    // The layout Lance 7 writes: a 1,232-byte manifest at position 130 (transaction before it).
    ManifestFooter footer = new ManifestFooter(130, 0, 2);
    long fileSize = 130 + 4 + 1232 + 16;
    assertThat(footer.expectedManifestLength(fileSize)).isEqualTo(1232);
  }

  @Test
  void leavesNoRoomWhenThePositionPointsIntoTheFooter() {
    assertThat(new ManifestFooter(100, 0, 1).expectedManifestLength(110)).isNegative();
  }
}
