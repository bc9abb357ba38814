package dev.lancemaintenance.ledger;

import java.nio.charset.StandardCharsets;

/**
 * A reference key as the key snapshot stores it: a 128-bit hash (MurmurHash3, x64 128-bit variant)
 * of the table's ledger fingerprint and the key. A decide task hashes every listed name, so the hash
 * must cost tens of nanoseconds, not the microsecond of a cryptographic digest (at 921,921 names,
 * ~0.05 s of CPU instead of ~1 s). For {@code n} listed keys and {@code m} entries the chance that
 * two different keys collide is about {@code n·m·2^-128} (~3·10^-27 on {@code huge}); it is not a
 * cryptographic hash, so someone who can write files into the table could aim a name at an entry
 * (docs/cleanup-semantics.md, section 21, says what a collision can and cannot do).
 *
 * <p>Ordered as two unsigned 64-bit halves, so that a partition (the leading {@value #PARTITION_BITS}
 * bits) is a contiguous run of the order.
 */
public record KeyHash(long high, long low) implements Comparable<KeyHash> {
  /** Leading bits of the hash that choose its partition. */
  public static final int PARTITION_BITS = 4;
  /** Partitions of a snapshot: a reader holds one at a time. */
  public static final int PARTITIONS = 1 << PARTITION_BITS;

  /**
   * The hash of {@code key} in the table whose ledger fingerprint is {@code fingerprint}: of the
   * UTF-8 of fingerprint, newline and key. For one key; many keys of one table hash through one
   * {@link KeyHasher}, which hashes the same bytes without encoding the fingerprint again for each.
   */
  public static KeyHash of(String fingerprint, String key) {
    return murmur3((fingerprint + '\n' + key).getBytes(StandardCharsets.UTF_8));
  }

  /** The partition this hash belongs to. */
  public int partition() {
    return partitionOf(high);
  }

  static int partitionOf(long high) {
    return (int) (high >>> (Long.SIZE - PARTITION_BITS));
  }

  /**
   * Written out rather than the record's generated one (a method handle per call, visible in a
   * profile of the listing, which looks a changed entry up per listed name): the halves are uniform
   * bits already, so the low half's is as good a hash as any.
   */
  @Override
  public int hashCode() {
    return Long.hashCode(low);
  }

  /** Both halves equal: the record's own equality, without the generated method handle. */
  @Override
  public boolean equals(Object other) {
    return other instanceof KeyHash hash && hash.high == high && hash.low == low;
  }

  @Override
  public int compareTo(KeyHash other) {
    return compare(high, low, other.high, other.low);
  }

  /** The order of two hashes given by their halves, without making either. */
  static int compare(long highA, long lowA, long highB, long lowB) {
    int byHigh = Long.compareUnsigned(highA, highB);
    return byHigh != 0 ? byHigh : Long.compareUnsigned(lowA, lowB);
  }

  /** MurmurHash3_x64_128 with seed 0 of {@code data} (the one implementation is {@link KeyHasher#digest}). */
  static KeyHash murmur3(byte[] data) {
    KeyHasher hasher = new KeyHasher();
    hasher.digest(data, data.length);
    return new KeyHash(hasher.high(), hasher.low());
  }
}
