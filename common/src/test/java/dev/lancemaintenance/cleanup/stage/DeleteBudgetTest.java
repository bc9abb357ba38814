package dev.lancemaintenance.cleanup.stage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupSettings;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DeleteBudgetTest {
  @Test
  void givesOutExactlyItsDeletes() {
    DeleteBudget budget = new DeleteBudget(3);

    long taken = IntStream.range(0, 10).filter(i -> budget.tryTake()).count();

    assertThat(taken).isEqualTo(3);
  }

  @Test
  void noCapGivesOutEveryDelete() {
    DeleteBudget budget = new DeleteBudget(CleanupSettings.NO_CAP);

    assertThat(IntStream.range(0, 10_000).allMatch(i -> budget.tryTake())).isTrue();
  }

  @Test
  void aSpentBudgetGivesNothing() {
    assertThat(new DeleteBudget(0).tryTake()).isFalse();
  }

  @Test
  void partitionsTakeTheirFilesInOrderUntilTheBudgetIsSpent() {
    assertThat(DeleteBudget.quotas(new long[] {4, 0, 5, 3}, 7)).containsExactly(4, 0, 3, 0);
    assertThat(DeleteBudget.quotas(new long[] {4, 0, 5, 3}, 100)).containsExactly(4, 0, 5, 3);
    assertThat(DeleteBudget.quotas(new long[] {4, 5}, CleanupSettings.NO_CAP)).containsExactly(4, 5);
  }
}
