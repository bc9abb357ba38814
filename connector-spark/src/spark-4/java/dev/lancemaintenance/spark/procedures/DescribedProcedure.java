package dev.lancemaintenance.spark.procedures;

import java.util.Objects;
import org.apache.spark.sql.connector.catalog.procedures.Procedure;

/**
 * A Lance procedure as Spark names and describes it, unbound or bound: the {@link LanceProcedure}'s
 * own name and words, stated once for both of {@link NativeProcedure}'s shapes.
 */
abstract class DescribedProcedure implements Procedure {
  final LanceProcedure procedure;

  DescribedProcedure(LanceProcedure procedure) {
    this.procedure = Objects.requireNonNull(procedure, "procedure");
  }

  @Override
  public final String name() {
    return procedure.name();
  }

  @Override
  public final String description() {
    return procedure.description();
  }
}
