package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupPolicy;
import dev.lancemaintenance.cleanup.plan.RetentionFacts;
import dev.lancemaintenance.format.DatasetRef;
import dev.lancemaintenance.storage.FileEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What a decide task records for a resume ({@link DecideByPath#decideAndRecord}): the files that go
 * and the unreferenced ones kept only for their age, which a later clock may let go; never a file
 * kept for a reason an equal plan keeps (referenced, not managed, newer than the listing cut-off).
 */
class DecideAndRecordTest {
  private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");
  /** The oldest retained version: 2 days old, so files up to 2 days old are listed candidates. */
  private static final long OLDEST_RETAINED_NANOS = NOW.minus(Duration.ofDays(2)).toEpochMilli() * 1_000_000L;

  @Test
  void theFilesThatGoAndThoseKeptOnlyForTheirAgeAreRecordedAsListed() {
    DecideByPath decide = new DecideByPath(DecisionContext.of(facts(), new MarkSummary(5, 1, OLDEST_RETAINED_NANOS, Map.of())));
    List<FileEntry> recorded = new ArrayList<>();
    FileEntry expired = file("data/expired.lance", Duration.ofDays(3));
    FileEntry oldOrphan = file("data/old-orphan.lance", Duration.ofDays(8));
    FileEntry youngOrphan = file("data/young-orphan.lance", Duration.ofDays(3));

    assertThat(decide.decideAndRecord(expired, Optional.of(MarkState.EXPIRED), recorded::add)).isPresent();
    assertThat(decide.decideAndRecord(oldOrphan, Optional.empty(), recorded::add)).isPresent();
    assertThat(decide.decideAndRecord(youngOrphan, Optional.empty(), recorded::add)).as("3 days old, unreferenced").isEmpty();
    assertThat(decide.decideAndRecord(file("data/kept.lance", Duration.ofDays(9)), Optional.of(MarkState.KEPT), recorded::add))
        .as("referenced").isEmpty();
    assertThat(decide.decideAndRecord(file("_refs/tags/t.json", Duration.ofDays(9)), Optional.empty(), recorded::add))
        .as("not managed").isEmpty();
    assertThat(decide.decideAndRecord(file("data/new.lance", Duration.ofDays(1)), Optional.empty(), recorded::add))
        .as("newer than the oldest retained version").isEmpty();

    assertThat(recorded).containsExactly(expired, oldOrphan, youngOrphan);
  }

  private static RetentionFacts facts() {
    CleanupPolicy policy = CleanupPolicy.builder().olderThan(Duration.ofDays(7), NOW).build();
    return new RetentionFacts("t", DatasetRef.MAIN, policy, 5, Map.of(), Set.of(), NOW.toEpochMilli());
  }

  private static FileEntry file(String path, Duration age) {
    return new FileEntry(path, 10, NOW.minus(age).toEpochMilli());
  }
}
