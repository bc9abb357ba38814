package dev.lancemaintenance.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RewrittenFileTest {
  private final AtomicInteger reads = new AtomicInteger();

  @Test
  void aFileThatParsesOnALaterReadIsReturned() {
    String value = RewrittenFile.read("_refs/tags/t.json", () -> {
      if (reads.incrementAndGet() < 3) {
        throw cutOff();
      }
      return "whole";
    });

    assertThat(value).isEqualTo("whole");
    assertThat(reads).hasValue(3);
  }

  @Test
  void aFileThatNeverParsesFailsAfterEveryPause() {
    assertThatThrownBy(() -> RewrittenFile.read("_refs/tags/t.json", () -> {
      reads.incrementAndGet();
      throw cutOff();
    })).isInstanceOf(CorruptTableException.class).hasMessageContaining("_refs/tags/t.json");

    assertThat(reads).hasValue(RewrittenFile.PAUSES_MILLIS.length + 1);
  }

  @Test
  void otherFailuresAreNotReadAgain() {
    assertThatThrownBy(() -> RewrittenFile.read("_refs/tags/t.json", () -> {
      reads.incrementAndGet();
      throw new IllegalStateException("not a parse failure");
    })).isInstanceOf(IllegalStateException.class);

    assertThat(reads).hasValue(1);
  }

  private static CorruptTableException cutOff() {
    return new CorruptTableException("file:/t.lance", "_refs/tags/t.json", "ref is not valid JSON");
  }
}
