package dev.lancemaintenance.ledger;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@link KeyHash#of} for one table's keys, one key after another, without an object per key: the
 * listing hashes every listed name (~920,000 on {@code huge-steady}), and the concatenated string,
 * its UTF-8 bytes and the hash object per name were most of what the lookup allocated. The bytes
 * hashed are exactly {@code (fingerprint + '\n' + key).getBytes(UTF_8)}: the prefix is encoded once
 * (it ends in {@code '\n'}, so no character spans it and the key), an ASCII key is copied char by
 * char into a reused buffer (its UTF-8 is its chars), and any other key is encoded as before. Not
 * safe for concurrent use: one per thread or batch.
 */
final class KeyHasher {
  private static final long C1 = 0x87c37b91114253d5L;
  private static final long C2 = 0x4cf5ad432745937fL;

  private final String fingerprint;
  private final byte[] prefix;
  private byte[] buffer;
  private long high;
  private long low;

  /** A hasher of {@link KeyHash#murmur3 raw bytes} only. */
  KeyHasher() {
    this.fingerprint = null;
    this.prefix = new byte[0];
    this.buffer = new byte[0];
  }

  KeyHasher(String fingerprint) {
    this.fingerprint = fingerprint;
    this.prefix = (fingerprint + '\n').getBytes(StandardCharsets.UTF_8);
    this.buffer = new byte[prefix.length + 128];
    System.arraycopy(prefix, 0, buffer, 0, prefix.length);
  }

  /** Hashes {@code key} of this hasher's table: {@link #high} and {@link #low} are then its hash's halves. */
  void hash(String key) {
    int length = prefix.length + key.length();
    if (length > buffer.length) {
      buffer = Arrays.copyOf(buffer, Math.max(length, 2 * buffer.length));
    }
    for (int at = 0; at < key.length(); at++) {
      char c = key.charAt(at);
      if (c >= 0x80) {
        byte[] encoded = (fingerprint + '\n' + key).getBytes(StandardCharsets.UTF_8);
        digest(encoded, encoded.length);
        return;
      }
      buffer[prefix.length + at] = (byte) c;
    }
    digest(buffer, length);
  }

  /** {@link #hash} as a {@link KeyHash}, for a key that is kept (a map's key, an entry's hash). */
  KeyHash keyHash(String key) {
    hash(key);
    return new KeyHash(high, low);
  }

  long high() {
    return high;
  }

  long low() {
    return low;
  }

  /** MurmurHash3_x64_128 with seed 0 of {@code data[0, length)}, as published (Austin Appleby, public domain). */
  void digest(byte[] data, int length) {
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
    high = h1;
    low = h2;
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
