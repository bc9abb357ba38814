package dev.lancemaintenance.spark.extensions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.spark.extensions.CallStatement.Argument;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallStatementTest {
  @Test
  void splitsNamedAndPositionalArgumentsAtTopLevelCommasOnly() {
    CallStatement call =
        CallStatement.parse(
                " -- nightly\n call LANCE.system.`clean``up` ('s3a://b/t,1.lance', map('k', 'v,)'),"
                    + " /* a comment, with a comma */ older_than => TIMESTAMP '2026-01-31 00:00:00', `dry_run`=>true);")
            .orElseThrow();

    assertThat(call.name()).containsExactly("LANCE", "system", "clean`up");
    assertThat(call.arguments())
        .containsExactly(
            new Argument(Optional.empty(), "'s3a://b/t,1.lance'"),
            new Argument(Optional.empty(), "map('k', 'v,)')"),
            new Argument(Optional.of("older_than"), "TIMESTAMP '2026-01-31 00:00:00'"),
            new Argument(Optional.of("dry_run"), "true"));
  }

  @Test
  void takesACallWithoutArguments() {
    assertThat(CallStatement.parse("CALL lance.cleanup()").orElseThrow().arguments()).isEmpty();
  }

  @Test
  void leavesEveryOtherStatementToSparksParser() {
    assertThat(CallStatement.parse("SELECT 1")).isEmpty();
    assertThat(CallStatement.parse("CALLS lance.cleanup()")).isEmpty();
    assertThat(CallStatement.parse("CALL iceberg.system.expire_snapshots('db.t')")).as("another catalog's CALL").isEmpty();
    assertThat(CallStatement.parse("CALL lancedb.cleanup('t')")).isEmpty();
  }

  @Test
  void aMalformedCallIntoLanceIsAnErrorSayingWhere() {
    for (String sql : List.of(
        "CALL lance.cleanup('t'", "CALL lance.cleanup('t', )", "CALL lance.cleanup('t) ", "CALL lance.cleanup('t') x",
        "CALL lance.(1)", "CALL lance.cleanup")) {
      assertThatThrownBy(() -> CallStatement.parse(sql)).as(sql)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("Cannot parse CALL lance.*: expected");
    }
  }
}
