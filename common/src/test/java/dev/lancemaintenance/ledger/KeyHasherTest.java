package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The listing's hasher gives exactly {@link KeyHash#of}'s hash, the MurmurHash3 of the fingerprint,
 * a newline and the key in UTF-8, whatever the key: an entry written by one is found by the other.
 */
class KeyHasherTest {
  @Test
  void oneHasherHashesEachKeyAsTheConcatenatedBytes() {
    String fingerprint = "table-é-7f3a";
    KeyHasher hasher = new KeyHasher(fingerprint);
    String longKey = "data/" + "x".repeat(500) + ".lance";
    // Long before short (the reused buffer must not leak the longer key's bytes), the ASCII path
    // and every other: accents, a character outside the BMP, an unpaired surrogate (encoded as '?').
    List<String> keys = List.of(longKey, "data/k1.lance", "", "d", "data/é.lance", "data/\uD83D\uDE00.lance",
        "data/\uD800.lance", "_indices/0a1b/part-00000.idx", longKey + "é", "data/k1.lance");
    for (String key : keys) {
      hasher.hash(key);
      KeyHash expected = KeyHash.murmur3((fingerprint + '\n' + key).getBytes(StandardCharsets.UTF_8));
      assertThat(new KeyHash(hasher.high(), hasher.low())).as(key).isEqualTo(expected).isEqualTo(KeyHash.of(fingerprint, key));
    }
  }
}
