package dev.lancemaintenance.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.FileKind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The element table: one instance and one number per element, however far it grows. */
class LedgerElementsTest {
  @Test
  void numbersEachElementOnceInTheOrderMetAcrossGrowth() {
    LedgerElements table = new LedgerElements();
    List<LedgerElement> first = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      LedgerElement element = new LedgerElement("data/" + i + ".lance", i % 3 == 0 ? FileKind.DELETION : FileKind.DATA, i % 7 != 0);
      first.add(element);
      assertThat(table.canonical(element)).as("element %d, new", i).isSameAs(element);
    }
    for (int i = 0; i < 10_000; i++) {
      LedgerElement equal = new LedgerElement(new String(first.get(i).key()), first.get(i).kind(), first.get(i).certain());
      assertThat(table.intern(equal)).as("element %d met again", i).isEqualTo(i);
      assertThat(table.canonical(equal)).isSameAs(first.get(i));
    }
    assertThat(table.size()).isEqualTo(10_000);
    assertThat(table.find(new LedgerElement("data/0.lance", FileKind.INDEX, true))).as("another kind is another element").isEqualTo(-1);
  }
}
