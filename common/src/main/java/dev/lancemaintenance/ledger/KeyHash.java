package dev.lancemaintenance.ledger;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A reference key as the key snapshot stores it: SHA-256 of the table's ledger fingerprint and the
 * key, cut to 128 bits. Keyed by the table, so that a collision cannot be carried over from another
 * table's snapshot; for {@code n} listed keys and {@code m} entries the chance that any two differ
 * and collide is below {@code n·m·2^-128} (docs/cleanup-semantics.md, section 21, says what a
 * collision would do and why this is the one residual assumption of the path).
 *
 * <p>Ordered as two unsigned 64-bit halves, so that a partition (the leading {@value #PARTITION_BITS}
 * bits) is a contiguous run of the order.
 */
public record KeyHash(long high, long low) implements Comparable<KeyHash> {
  /** Leading bits of the hash that choose its partition. */
  public static final int PARTITION_BITS = 4;
  /** Partitions of a snapshot: a reader holds one at a time. */
  public static final int PARTITIONS = 1 << PARTITION_BITS;
  /** One digest per thread: a decide task hashes every listed key, and a digest is not shared. */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(KeyHash::sha256);

  /** The hash of {@code key} in the table whose ledger fingerprint is {@code fingerprint}. */
  public static KeyHash of(String fingerprint, String key) {
    MessageDigest sha = SHA_256.get();
    sha.update(fingerprint.getBytes(StandardCharsets.UTF_8));
    sha.update((byte) '\n');
    ByteBuffer digest = ByteBuffer.wrap(sha.digest(key.getBytes(StandardCharsets.UTF_8)));
    return new KeyHash(digest.getLong(), digest.getLong());
  }

  /** The partition this hash belongs to. */
  public int partition() {
    return partitionOf(high);
  }

  static int partitionOf(long high) {
    return (int) (high >>> (Long.SIZE - PARTITION_BITS));
  }

  @Override
  public int compareTo(KeyHash other) {
    int byHigh = Long.compareUnsigned(high, other.high);
    return byHigh != 0 ? byHigh : Long.compareUnsigned(low, other.low);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
