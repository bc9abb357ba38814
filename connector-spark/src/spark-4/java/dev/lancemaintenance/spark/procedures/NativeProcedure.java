package dev.lancemaintenance.spark.procedures;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.catalog.procedures.BoundProcedure;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A {@link LanceProcedure} as a Spark 4 native procedure: Spark binds named and positional
 * arguments to the {@link ProcedureParameter}s and fills in defaults; the call's rows come back as
 * a {@link RowsScan}.
 */
final class NativeProcedure extends DescribedProcedure implements UnboundProcedure {
  NativeProcedure(LanceProcedure procedure) {
    super(procedure);
  }

  @Override
  public BoundProcedure bind(StructType inputType) {
    List<String> given = givenNames(inputType, procedure.parameters(Map.of()));
    Map<String, DataType> givenTypes = new HashMap<>();
    StructField[] fields = inputType.fields();
    for (int i = 0; i < fields.length; i++) {
      givenTypes.put(given.get(i).toLowerCase(Locale.ROOT), fields[i].dataType());
    }
    return new Bound(procedure.parameters(givenTypes), given);
  }

  /**
   * The parameter names a call gives, by name or by position, from the input type Spark binds with:
   * a NULL among them was written by the user and is never a default.
   */
  private static List<String> givenNames(StructType inputType, List<Parameter> declared) {
    List<String> names = new ArrayList<>();
    StructField[] fields = inputType.fields();
    for (int i = 0; i < fields.length; i++) {
      boolean byName = fields[i].metadata().contains(ProcedureParameter.BY_NAME_METADATA_KEY);
      names.add(byName ? fields[i].name() : i < declared.size() ? declared.get(i).name() : "");
    }
    return names;
  }

  private static ProcedureParameter toSpark(Parameter parameter) {
    ProcedureParameter.Builder builder = ProcedureParameter.in(parameter.name(), parameter.type()).comment(parameter.comment());
    parameter.defaultSql().ifPresent(builder::defaultValue);
    return builder.build();
  }

  private final class Bound extends DescribedProcedure implements BoundProcedure {
    private final List<Parameter> parameters;
    private final List<String> given;

    Bound(List<Parameter> parameters, List<String> given) {
      super(NativeProcedure.this.procedure);
      this.parameters = parameters;
      this.given = given;
    }

    @Override
    public ProcedureParameter[] parameters() {
      return parameters.stream().map(NativeProcedure::toSpark).toArray(ProcedureParameter[]::new);
    }

    @Override
    public boolean isDeterministic() {
      return false;
    }

    @Override
    public Iterator<Scan> call(InternalRow input) {
      LanceProcedure.Result result = procedure.call(new LanceProcedure.BoundCall(parameters, given, input));
      return List.<Scan>of(new RowsScan(result.schema(), result.rows())).iterator();
    }
  }
}
