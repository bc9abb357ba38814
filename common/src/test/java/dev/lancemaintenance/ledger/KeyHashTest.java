package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The key snapshot's hash is MurmurHash3 x64 128 as published: the reference's output (as Guava prints it). */
class KeyHashTest {
  @Test
  void itIsMurmurHash3OfTheFingerprintAndTheKey() {
    assertThat(hex(KeyHash.murmur3("hello".getBytes(StandardCharsets.UTF_8)))).isEqualTo("029bbd41b3a7d8cb191dae486a901e5b");
    assertThat(hex(KeyHash.murmur3("0123456789abcdefg".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("def945aa2d61328eee72c306c2f40008");
    assertThat(hex(KeyHash.of("f1", "data/k1.lance"))).isEqualTo("4f14847e6f6237c0fa3dfe062a7a7137");
  }

  @Test
  void aPartitionIsARunOfTheOrder() {
    KeyHash low = new KeyHash(0x0fffffffffffffffL, -1);
    KeyHash high = new KeyHash(0x1000000000000000L, 0);
    assertThat(low.partition()).isZero();
    assertThat(high.partition()).isOne();
    assertThat(low.compareTo(high)).isNegative();
    assertThat(new KeyHash(-1, 0).partition()).isEqualTo(KeyHash.PARTITIONS - 1);
  }

  /** Equal exactly when both halves are: hashes sharing a low half stay two keys in a map. */
  @Test
  void twoHashesAreEqualOnlyWhenBothHalvesAre() {
    KeyHash hash = new KeyHash(7, 11);
    assertThat(hash).isEqualTo(new KeyHash(7, 11)).hasSameHashCodeAs(new KeyHash(7, 11));
    assertThat(hash).isNotEqualTo(new KeyHash(8, 11)).isNotEqualTo(new KeyHash(7, 12)).isNotEqualTo("7 11");
    java.util.Map<KeyHash, String> answers = new java.util.HashMap<>();
    answers.put(hash, "kept");
    answers.put(new KeyHash(8, 11), "expired");
    assertThat(answers).hasSize(2).containsEntry(new KeyHash(7, 11), "kept").containsEntry(new KeyHash(8, 11), "expired");
  }

  /** The two halves little-endian, as the reference lays out its 16 bytes. */
  private static String hex(KeyHash hash) {
    return HexFormat.of().formatHex(
        ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(hash.high()).putLong(hash.low()).array());
  }
}
