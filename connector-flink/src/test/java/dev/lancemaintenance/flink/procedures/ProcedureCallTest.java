package dev.lancemaintenance.flink.procedures;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.MaintenanceOption;
import dev.lancemaintenance.cleanup.CleanupOption;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a call must give, checked before a procedure does anything, and what it hands on. */
class ProcedureCallTest {
  private static final List<MaintenanceOption> DELETES =
      List.of(CleanupOption.OLDER_THAN, CleanupOption.DRY_RUN, CleanupOption.RETAIN_LAST);
  private static final List<MaintenanceOption> LOOKS = List.of(CleanupOption.OLDER_THAN, CleanupOption.RETAIN_LAST);

  private static ProcedureCall call(List<MaintenanceOption> options, Object... values) {
    return new ProcedureCall("cleanup", List.of("table"), List.of("/t.lance"), options, Arrays.asList(values));
  }

  @Test
  void aProcedureThatDeletesRefusesACallWithoutDryRunNamingItAndTheValidArguments() {
    assertThatThrownBy(() -> call(DELETES, "7d", null, 3).options())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sys.cleanup needs dry_run")
        .hasMessageContaining("Valid arguments: table, older_than, dry_run, retain_last");
  }

  @Test
  void aProcedureThatDeletesRefusesACallWithoutOlderThan() {
    assertThatThrownBy(() -> call(DELETES, null, false, null).options()).hasMessageContaining("needs older_than");
  }

  @Test
  void aProcedureWithoutDryRunTakesACallWithoutOlderThan() {
    assertThat(call(LOOKS, null, 3).options()).containsExactly(java.util.Map.entry(CleanupOption.RETAIN_LAST, 3));
  }

  @Test
  void optionsAreHandedOnInTheirDeclaredOrderWithoutTheNullOnes() {
    assertThat(call(DELETES, "7d", true, null).options().keySet())
        .containsExactly(CleanupOption.OLDER_THAN, CleanupOption.DRY_RUN);
  }

  @Test
  void aBlankTableIsAnErrorThatShowsTheQuoting() {
    ProcedureCall blank = new ProcedureCall("cleanup", List.of("table"), List.of(" "), LOOKS, Arrays.asList(null, null));
    assertThatThrownBy(blank::table).hasMessageContaining("`table` => ");
  }

  @Test
  void aMissingRequiredArgumentIsNamed() {
    ProcedureCall tag = new ProcedureCall("create_tag", List.of("table", "tag"), Arrays.asList("/t.lance", null),
        List.of(), List.of());
    assertThatThrownBy(() -> tag.required("tag", String.class)).hasMessageContaining("Parameter 'tag' is required");
  }
}
