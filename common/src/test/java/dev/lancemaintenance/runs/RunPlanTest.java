package dev.lancemaintenance.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunPlanTest {
  private static final RunPlan PLAN = new RunPlan(facts("8", "ab12cd34ef56ab12cd34ef56"), 16);

  @Test
  void aPlanReadsBackAsWritten() {
    RunPlan read = RunPlan.decode(PLAN.encode());

    assertThat(read).isEqualTo(PLAN);
    assertThat(read.differenceFrom(PLAN)).isEmpty();
  }

  @Test
  void theFirstDifferingFactNamesWhatChangedAndDigestsAreShortened() {
    assertThat(PLAN.differenceFrom(new RunPlan(facts("9", "ab12cd34ef56ab12cd34ef56"), 16)))
        .contains("latest_version 8 -> 9");
    assertThat(PLAN.differenceFrom(new RunPlan(facts("8", "ffffffffffffffffffffffff"), 16)))
        .contains("manifests_sha256 ab12cd34ef56 -> ffffffffffff");
    Map<String, String> more = new LinkedHashMap<>(PLAN.facts());
    more.put("listed_from", "an inventory");
    assertThat(PLAN.differenceFrom(new RunPlan(more, 16))).contains("listed_from none -> an inventory");
  }

  @Test
  void theDecideTasksAreNotAFactOfTheTable() {
    assertThat(PLAN.differenceFrom(new RunPlan(PLAN.facts(), 3))).isEmpty();
  }

  @Test
  void factsComparedByARuleOfTheirOwnCanBeSetAndLeftOut() {
    RunPlan withCutOff = PLAN.with("before_timestamp", "2026-11-01T00:00:00Z").with("latest_version", "9");

    assertThat(withCutOff.fact("before_timestamp")).contains("2026-11-01T00:00:00Z");
    assertThat(withCutOff.facts().keySet()).as("replaced in place, added last")
        .containsExactly("dataset", "latest_version", "manifests_sha256", "before_timestamp");
    assertThat(withCutOff.without(java.util.List.of("before_timestamp", "latest_version")).differenceFrom(
        PLAN.without(java.util.List.of("latest_version")))).isEmpty();
    assertThat(RunPlan.decode(withCutOff.encode())).isEqualTo(withCutOff);
  }

  @Test
  void aPlanCutShortOrGarbledDoesNotRead() {
    byte[] whole = PLAN.encode();
    byte[] cut = java.util.Arrays.copyOf(whole, whole.length - 2);
    byte[] garbled = new String(whole, StandardCharsets.UTF_8).replace("latest_version=8", "latest_version=7")
        .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> RunPlan.decode(cut)).hasMessageContaining("cut short");
    assertThatThrownBy(() -> RunPlan.decode(garbled)).hasMessageContaining("checksum mismatch");
  }

  private static Map<String, String> facts(String latestVersion, String digest) {
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put("dataset", "main");
    facts.put("latest_version", latestVersion);
    facts.put("manifests_sha256", digest);
    return facts;
  }
}
