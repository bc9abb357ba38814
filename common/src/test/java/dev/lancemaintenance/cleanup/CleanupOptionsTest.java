package dev.lancemaintenance.cleanup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceException;
import dev.lancemaintenance.cleanup.stage.DecideByPath;
import dev.lancemaintenance.cleanup.stage.DecisionContext;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.format.DatasetRef;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The option catalogue, the one {@code older_than} grammar, cut-offs outside the nanosecond range
 * and the retention guard of {@code delete_unverified} (issue 12 items 3, 5, 13, 14; issue 13).
 */
class CleanupOptionsTest {
  private static final Instant NOW = Instant.parse("2026-06-01T00:00:00Z");

  @Test
  void anUnknownNameIsRejectedNamingItAndListingTheValidOnes() {
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("dryrun", "true")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'dryrun'")
        .hasMessageContaining("dry_run")
        .hasMessageContaining("older_than");
  }

  @Test
  void aNameGivenTwiceIsRejected() {
    Map<String, String> twice = new LinkedHashMap<>();
    twice.put("dry_run", "true");
    twice.put("DRY_RUN", "false");
    assertThatThrownBy(() -> CleanupOption.parseAll(twice)).hasMessageContaining("more than once");
  }

  @Test
  void aNullForAnOptionThatDecidesWhatIsDeletedIsAnError() {
    for (CleanupOption option : CleanupOption.values()) {
      Map<String, String> withNull = new HashMap<>();
      withNull.put(option.sqlName(), null);
      if (option.changesWhatIsDeleted()) {
        assertThatThrownBy(() -> CleanupOption.parseAll(withNull)).as(option.sqlName())
            .hasMessageContaining(option.sqlName()).hasMessageContaining("NULL");
      }
    }
    assertThat(CleanupOption.DRY_RUN.changesWhatIsDeleted()).isTrue();
    assertThat(CleanupOption.OLDER_THAN.changesWhatIsDeleted()).isTrue();
  }

  @Test
  void aBadBooleanIsNotFalse() {
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("dry_run", "yes"))).hasMessageContaining("true or false");
  }

  @Test
  void oneGrammarForOlderThanAsInTheTablesAutoCleanupConfig() {
    assertThat(OlderThan.beforeTimestamp("14days", NOW)).isEqualTo(NOW.minus(Duration.ofDays(14)));
    assertThat(OlderThan.beforeTimestamp("2h 30m", NOW)).isEqualTo(NOW.minus(Duration.ofMinutes(150)));
    assertThat(OlderThan.beforeTimestamp("7d", NOW)).isEqualTo(NOW.minus(Duration.ofDays(7)));
    assertThat(OlderThan.beforeTimestamp("0s", NOW)).isEqualTo(NOW);
    assertThat(OlderThan.beforeTimestamp("PT2H", NOW)).isEqualTo(NOW.minus(Duration.ofHours(2)));
    assertThat(OlderThan.beforeTimestamp("2026-01-31T00:00:00Z", NOW)).isEqualTo(Instant.parse("2026-01-31T00:00:00Z"));
    for (String auto : new String[] {"14days", "2h 30m", "1hour 12min 5s", "3w"}) {
      assertThat(OlderThan.duration(auto)).as(auto).isEqualTo(HumanDuration.parse(auto));
    }
  }

  @Test
  void aDurationBeyondAnyClockIsAClearError() {
    assertThatThrownBy(() -> OlderThan.beforeTimestamp("99999999999999999999d", NOW))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("older_than")
        .hasMessageContaining("99999999999999999999d");
    assertThat(OlderThan.beforeTimestamp("100000000000d", NOW)).isBefore(Instant.parse("1677-01-01T00:00:00Z"));
  }

  @Test
  void cutoffsOutsideTheNanosecondRangeAreInfinities() {
    CleanupPolicy future = CleanupPolicy.builder().beforeTimestamp(Instant.parse("2999-01-01T00:00:00Z")).build();
    CleanupPolicy past = CleanupPolicy.builder().beforeTimestamp(Instant.parse("1500-01-01T00:00:00Z")).build();
    long recent = NOW.getEpochSecond() * 1_000_000_000L;

    assertThat(future.qualifies(1, recent)).as("after 2262: every version is older").isTrue();
    assertThat(past.qualifies(1, recent)).as("before 1677: no version is older").isFalse();
  }

  @Test
  void deleteUnverifiedWithAWindowShorterThanTheGuardIsRefusedSayingHow() {
    CleanupPolicy shortWindow = CleanupPolicy.builder().beforeTimestamp(NOW).deleteUnverified(true).build();

    assertThatThrownBy(() -> RetentionGuard.check("file:/t", shortWindow, NOW, false))
        .isInstanceOf(MaintenanceException.class)
        .hasMessageContaining("file:/t")
        .hasMessageContaining("retention guard")
        .hasMessageContaining("allow_short_retention")
        .hasMessageContaining("spark.lance.cleanup.retentionCheck=false");
    RetentionGuard.check("file:/t", shortWindow, NOW, true);
    RetentionGuard.check("file:/t", CleanupPolicy.builder().beforeTimestamp(NOW).build(), NOW, false);
    RetentionGuard.check("file:/t",
        CleanupPolicy.builder().beforeTimestamp(NOW.minus(Duration.ofDays(1))).deleteUnverified(true).build(), NOW, false);
  }

  @Test
  void deleteUnverifiedKeepsFilesYoungerThanTheGuard() {
    long now = NOW.toEpochMilli();
    long guard = now - Duration.ofDays(1).toMillis();
    DecideByPath decide = new DecideByPath(
        new DecisionContext(DatasetRef.MAIN, Long.MAX_VALUE, now - Duration.ofDays(7).toMillis(), true, guard));
    FileEntry youngerThanGuard = new FileEntry("data/in-flight.lance", 10, now - Duration.ofMinutes(1).toMillis());
    FileEntry olderThanGuard = new FileEntry("data/abandoned.lance", 10, now - Duration.ofDays(2).toMillis());

    assertThat(decide.decide(youngerThanGuard, java.util.Optional.empty())).as("a write in progress").isEmpty();
    assertThat(decide.decide(olderThanGuard, java.util.Optional.empty())).isPresent()
        .get().extracting(CandidateFile::reason).isEqualTo(RemovalReason.UNVERIFIED_DELETE_UNVERIFIED);
  }

  @Test
  void theCommandLineSpellsEveryOptionAfterItsSqlName() {
    assertThat(CleanupOption.OLDER_THAN.cliName()).isEqualTo("older-than");
    assertThat(CleanupOption.ERROR_IF_TAGGED_OLD_VERSIONS.cliName()).isEqualTo("no-error-if-tagged-old-versions");
    assertThat(CleanupOption.ALLOW_SHORT_RETENTION.cliName()).isEqualTo("allow-short-retention");
  }

  @Test
  void modeTakesFullOrIncrementalAndAnythingElseIsRefusedNamingIt() {
    assertThat(CleanupOption.parseAll(Map.of("mode", "Incremental", "verify", "true")))
        .containsEntry(CleanupOption.MODE, "Incremental").containsEntry(CleanupOption.VERIFY, true);
    assertThat(MarkMode.ofOption(" full ")).isEqualTo(MarkMode.FULL);
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("mode", "verify")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'mode'").hasMessageContaining("'full' or 'incremental'").hasMessageContaining("verify => true");
  }

  @Test
  void listingTakesAutoOrAlwaysAndAnythingElseIsRefusedNamingIt() {
    assertThat(CleanupOption.parseAll(Map.of("listing", "AUTO"))).containsEntry(CleanupOption.LISTING, "AUTO");
    assertThat(CleanupOption.parseAll(Map.of("listing", "always"))).containsEntry(CleanupOption.LISTING, "always");
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("listing", "never")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("listing").hasMessageContaining("[auto, always]").hasMessageContaining("'never'");
    assertThat(CleanupOption.LISTING.changesWhatIsDeleted()).as("the same files go either way").isFalse();
  }

  @Test
  void modeAndVerifyComeLastSoThatPositionalCallsKeepTheirMeaning() {
    List<CleanupOption> options = List.of(CleanupOption.values());
    assertThat(options.indexOf(CleanupOption.MODE)).isEqualTo(options.indexOf(CleanupOption.MAX_DELETES) + 1);
    assertThat(options.indexOf(CleanupOption.VERIFY)).isEqualTo(options.indexOf(CleanupOption.MODE) + 1);
    assertThat(options.indexOf(CleanupOption.INVENTORY)).as("added after them").isGreaterThan(options.indexOf(CleanupOption.VERIFY));
    assertThat(CleanupOption.policyOptions()).as("not options of a listing").doesNotContain(CleanupOption.MODE, CleanupOption.VERIFY);
  }

  @Test
  void distributeAboveTakesAWholeNumberOfVersionsFromZeroAndRefusesAnythingElseNamingIt() {
    assertThat(CleanupOption.parseAll(Map.of("distribute_above", "0"))).containsEntry(CleanupOption.DISTRIBUTE_ABOVE, 0);
    assertThat(CleanupOption.parseAll(Map.of("distribute_above", " 12000 ")))
        .containsEntry(CleanupOption.DISTRIBUTE_ABOVE, 12_000);
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("distribute_above", "-1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("distribute_above ").hasMessageContaining("not -1").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> CleanupOption.parseAll(Map.of("distribute_above", "many")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'distribute_above'").hasMessageContaining("'many'").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> DistributeAbove.parse("5k", "spark.lance.cleanup.distributeAbove"))
        .hasMessageStartingWith("spark.lance.cleanup.distributeAbove ").hasMessageContaining("'5k'");
    assertThatThrownBy(() -> DistributeAbove.parse("-3", "spark.lance.cleanup.distributeAbove"))
        .hasMessageStartingWith("spark.lance.cleanup.distributeAbove: distribute_above").hasMessageContaining("not -3");
    assertThat(CleanupOption.DISTRIBUTE_ABOVE.defaultValue()).contains(String.valueOf(DistributeAbove.DEFAULT));
    assertThat(CleanupOption.DISTRIBUTE_ABOVE.changesWhatIsDeleted()).as("the same files go either way").isFalse();
    assertThat(CleanupOption.DISTRIBUTE_ABOVE.runSetting()).as("not an option of a listing").isTrue();
    assertThat(List.of(CleanupOption.values())).as("new options go last").last().isEqualTo(CleanupOption.DISTRIBUTE_ABOVE);
  }

  @Test
  void distributeAboveInProcessUpToTheThresholdAndZeroDistributesEveryTable() {
    assertThat(DistributeAbove.inProcess(5_000, 5_000)).isTrue();
    assertThat(DistributeAbove.inProcess(5_000, 5_001)).isFalse();
    assertThat(DistributeAbove.inProcess(0, 1)).isFalse();
  }
}
