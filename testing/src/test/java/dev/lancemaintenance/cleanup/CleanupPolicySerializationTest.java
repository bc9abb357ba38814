package dev.lancemaintenance.cleanup;

import static dev.lancemaintenance.testing.JavaSerialization.roundTrip;
import static org.assertj.core.api.Assertions.assertThat;

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

  @Test
  void anOrphanSweepStaysOneAcrossJavaSerialization() throws Exception {
    CleanupPolicy policy = CleanupPolicy.builder().beforeTimestamp(Instant.parse("2026-01-31T10:15:30Z")).orphanSweep().build();

    assertThat(roundTrip(policy)).isEqualTo(policy);
    assertThat(roundTrip(policy).orphanSweep()).isTrue();
  }
}
