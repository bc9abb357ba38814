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

  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  /** The hash of {@code key} in the table whose ledger fingerprint is {@code fingerprint}. */
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

  /** MurmurHash3_x64_128 with seed 0, as published (Austin Appleby, public domain). */
  static KeyHash murmur3(byte[] data) {
    int length = data.length;
    int blocks = length / 16;
    long h1 = 0;
    long h2 = 0;
    for (int i = 0; i < blocks; i++) {
      long k1 = littleEndian(data, i * 16);
      long k2 = littleEndian(data, i * 16 + 8);
      h1 ^= mixK1(k1);
      h1 = Long.rotateLeft(h1, 27) + h2;
      h1 = h1 * 5 + 0x52dce729;
      h2 ^= mixK2(k2);
      h2 = Long.rotateLeft(h2, 31) + h1;
      h2 = h2 * 5 + 0x38495ab5;
    }
    long k1 = 0;
    long k2 = 0;
    int tail = blocks * 16;
    for (int i = length - tail - 1; i >= 8; i--) {
      k2 ^= (long) (data[tail + i] & 0xff) << ((i - 8) * 8);
    }
    for (int i = Math.min(length - tail, 8) - 1; i >= 0; i--) {
      k1 ^= (long) (data[tail + i] & 0xff) << (i * 8);
    }
    h1 ^= mixK1(k1);
    h2 ^= mixK2(k2);
    h1 ^= length;
    h2 ^= length;
    h1 += h2;
    h2 += h1;
    h1 = fmix(h1);
    h2 = fmix(h2);
    h1 += h2;
    h2 += h1;
    return new KeyHash(h1, h2);
  }

  private static long littleEndian(byte[] data, int at) {
    long value = 0;
    for (int i = 7; i >= 0; i--) {
      value = (value << 8) | (data[at + i] & 0xff);
    }
    return value;
  }

  private static long mixK1(long k1) {
    return Long.rotateLeft(k1 * C1, 31) * C2;
  }

  private static long mixK2(long k2) {
    return Long.rotateLeft(k2 * C2, 33) * C1;
  }

  private static long fmix(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
