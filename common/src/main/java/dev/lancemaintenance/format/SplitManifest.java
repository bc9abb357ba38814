package dev.lancemaintenance.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.WireFormat;
import dev.lancemaintenance.proto.CleanupViewProtos;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A manifest message split at its fragments: where each fragment's serialized bytes lie, found by
 * walking the top level of the message without parsing them, and the file-naming view of every
 * other field. Splitting costs a varint or two per fragment, so a scanner can compare a fragment's
 * bytes with ones it has met before and parse only the new ones.
 */
final class SplitManifest {
  private static final int FRAGMENTS_FIELD = 2;

  private final ByteString message;
  private final ByteBuffer bytes;
  /** Per fragment: where its field tag starts, where its payload starts and where it ends. */
  private final int[] tagStarts;
  private final int[] payloadStarts;
  private final int[] ends;
  private final int count;
  private final CleanupViewProtos.ManifestFilesView view;

  private SplitManifest(ByteString message, int[] tagStarts, int[] payloadStarts, int[] ends, int count)
      throws IOException {
    this.message = message;
    // slice(): a view of a bounded ByteString starts at its offset into the array, not at index 0.
    this.bytes = message.asReadOnlyByteBuffer().slice();
    this.tagStarts = tagStarts;
    this.payloadStarts = payloadStarts;
    this.ends = ends;
    this.count = count;
    this.view = parseOtherFields();
  }

  /** Splits the manifest message {@code message} of {@code file}. */
  static SplitManifest split(ManifestFile file, ByteString message) {
    try {
      CodedInputStream input = message.newCodedInput();
      int capacity = initialCapacity(message.size());
      int[] tagStarts = new int[capacity];
      int[] payloadStarts = new int[capacity];
      int[] ends = new int[capacity];
      int count = 0;
      while (!input.isAtEnd()) {
        int tagStart = input.getTotalBytesRead();
        int tag = input.readTag();
        if (WireFormat.getTagFieldNumber(tag) != FRAGMENTS_FIELD) {
          if (!input.skipField(tag)) {
            throw file.corrupt("manifest is not a valid protobuf message: unexpected end-group tag at offset " + tagStart);
          }
          continue;
        }
        if (WireFormat.getTagWireType(tag) != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          throw file.corrupt("manifest fragment at offset " + tagStart + " is not a length-delimited message");
        }
        int length = input.readRawVarint32();
        int payloadStart = input.getTotalBytesRead();
        input.skipRawBytes(length);
        if (count == capacity) {
          capacity *= 2;
          tagStarts = Arrays.copyOf(tagStarts, capacity);
          payloadStarts = Arrays.copyOf(payloadStarts, capacity);
          ends = Arrays.copyOf(ends, capacity);
        }
        tagStarts[count] = tagStart;
        payloadStarts[count] = payloadStart;
        ends[count] = payloadStart + length;
        count++;
      }
      return new SplitManifest(message, tagStarts, payloadStarts, ends, count);
    } catch (IOException e) {
      throw file.corrupt("manifest is not a valid protobuf message: " + e.getMessage(), e);
    }
  }

  /**
   * The fragments a manifest of {@code bytes} is sized for at first: one per {@value
   * #BYTES_PER_FRAGMENT_GUESS} bytes, so that a manifest of many small fragments is split without
   * growing its three arrays a dozen times. The daily run of {@code huge-steady} splits 1,010 new
   * manifests of ~670 KB and ~8,000 fragments each, and the growth from 16 (a copy of all three
   * arrays per doubling, the larger ones allocated outside the thread's buffer) was the largest
   * leaf of its manifest decoding (docs/benchmarks.md, "stop 34"). A manifest of larger fragments
   * holds ints for fewer than it is sized for (12 bytes per guess, under a fifth of its size);
   * more fragments than guessed grow the arrays as before.
   */
  static int initialCapacity(int bytes) {
    return Math.max(16, bytes / BYTES_PER_FRAGMENT_GUESS);
  }

  private static final int BYTES_PER_FRAGMENT_GUESS = 64;

  /** Every field but the fragments: the gaps between fragments parsed in order, as one message. */
  private CleanupViewProtos.ManifestFilesView parseOtherFields() throws IOException {
    CleanupViewProtos.ManifestFilesView.Builder builder = CleanupViewProtos.ManifestFilesView.newBuilder();
    int from = 0;
    for (int i = 0; i < count; i++) {
      mergeRange(builder, from, tagStarts[i]);
      from = ends[i];
    }
    mergeRange(builder, from, message.size());
    return builder.build();
  }

  private void mergeRange(CleanupViewProtos.ManifestFilesView.Builder builder, int from, int to) throws IOException {
    if (from < to) {
      CodedInputStream input = message.substring(from, to).newCodedInput();
      input.enableAliasing(true);
      builder.mergeFrom(input);
    }
  }

  CleanupViewProtos.ManifestFilesView view() {
    return view;
  }

  int fragmentCount() {
    return count;
  }

  /** The serialized fragment {@code index}, a view of the manifest's bytes. */
  ByteString fragment(int index) {
    return message.substring(payloadStarts[index], ends[index]);
  }

  /** The serialized fragment {@code index} for comparing, a view of the manifest's bytes. */
  ByteBuffer fragmentBytes(int index) {
    return bytes.slice(payloadStarts[index], ends[index] - payloadStarts[index]);
  }

  /**
   * How many leading fragments are byte for byte the ones of {@code earlier}, at the same places.
   * One vectorised compare of the two fragment regions: bytes equal up to the first difference
   * split into the same fragments, so every fragment ending before it is shared.
   */
  int sharedLeadingFragments(SplitManifest earlier) {
    int shared = Math.min(count, earlier.count);
    if (shared == 0) {
      return 0;
    }
    ByteBuffer mine = bytes.slice(tagStarts[0], ends[count - 1] - tagStarts[0]);
    ByteBuffer theirs = earlier.bytes.slice(earlier.tagStarts[0], earlier.ends[earlier.count - 1] - earlier.tagStarts[0]);
    int firstDifference = mine.mismatch(theirs);
    if (firstDifference < 0) {
      return shared;
    }
    int limit = tagStarts[0] + firstDifference;
    int sharedCount = 0;
    while (sharedCount < shared && ends[sharedCount] <= limit) {
      sharedCount++;
    }
    return sharedCount;
  }
}
