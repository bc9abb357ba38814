package dev.lancemaintenance.benchmarks.generate;

import com.google.protobuf.ByteString;
import dev.lancemaintenance.proto.TableProtos;
import java.nio.ByteBuffer;
import java.util.UUID;

/** Index UUIDs as the manifest stores them (16 bytes, most significant first) and as directory names. */
final class IndexIds {
  private IndexIds() {}

  static String toString(TableProtos.UUID uuid) {
    ByteBuffer bytes = uuid.getUuid().asReadOnlyByteBuffer();
    return new UUID(bytes.getLong(), bytes.getLong()).toString();
  }

  static TableProtos.UUID of(UUID uuid) {
    ByteBuffer bytes = ByteBuffer.allocate(16);
    bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
    return TableProtos.UUID.newBuilder().setUuid(ByteString.copyFrom(bytes.array())).build();
  }
}
