package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CleanupPolicySerializationTest {

  @Test
  void survivesJavaSerializationWithEveryBoundSet() throws Exception {
    CleanupPolicy policy =
        CleanupPolicy.builder()
            .beforeTimestamp(Instant.parse("2026-01-31T10:15:30.123456789Z"))
            .beforeVersion(42)
            .deleteUnverified(true)
            .errorIfTaggedOldVersions(false)
            .cleanReferencedBranches(true)
            .build();

    assertThat(roundTrip(policy)).isEqualTo(policy);
  }

  @Test
  void survivesJavaSerializationWithNoBounds() throws Exception {
    CleanupPolicy policy = CleanupPolicy.builder().build();

    assertThat(roundTrip(policy)).isEqualTo(policy);
  }

  private static Object roundTrip(Object value) throws IOException, ClassNotFoundException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return in.readObject();
    }
  }
}
