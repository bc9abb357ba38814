package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Whether the pacer makes a caller wait, told without a clock: on an interrupted thread any wait
 * throws at once, so a call that returns did not wait and a call that throws would have.
 */
class TokenBucketPacerTest {
  @AfterEach
  void clearInterrupt() {
    Thread.interrupted();
  }

  @Test
  void aNegativeRateIsRefused() {
    assertThatThrownBy(() -> new TokenBucketPacer(-1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1");
  }

  @Test
  void rateZeroIsUnlimitedAndNeverWaits() {
    TokenBucketPacer pacer = new TokenBucketPacer(0);
    Thread.currentThread().interrupt();
    assertThatCode(() -> {
      pacer.acquire(Integer.MAX_VALUE);
      pacer.acquire(Integer.MAX_VALUE);
    }).doesNotThrowAnyException();
  }

  @Test
  void oneSecondOfDeletesGoesAtOnceAndTheNextWaits() {
    TokenBucketPacer pacer = new TokenBucketPacer(1000);
    Thread.currentThread().interrupt();
    assertThatCode(() -> pacer.acquire(1000)).as("the first second's budget").doesNotThrowAnyException();
    assertThatThrownBy(() -> pacer.acquire(1000))
        .as("beyond the budget the caller waits")
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Interrupted while pacing deletes");
    assertThat(Thread.currentThread().isInterrupted()).as("the interrupt is kept for the caller").isTrue();
  }

  @Test
  void aBatchLargerThanTheRateWaitsEvenOnAFreshPacer() {
    // The bucket holds one second of deletes, no more: an idle pacer cannot save up a burst.
    TokenBucketPacer pacer = new TokenBucketPacer(10);
    Thread.currentThread().interrupt();
    assertThatThrownBy(() -> pacer.acquire(11)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void everyRetryWaitsEvenAfterManyAttempts() {
    // The exponential backoff is capped: an uncapped shift would overflow into a negative, i.e. no wait.
    TokenBucketPacer pacer = new TokenBucketPacer(0);
    for (int attempt : new int[] {1, 2, 11, 54, 64, 1000}) {
      Thread.currentThread().interrupt();
      assertThatThrownBy(() -> pacer.backoff(attempt)).as("attempt " + attempt).isInstanceOf(IllegalStateException.class);
    }
  }
}
