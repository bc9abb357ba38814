package dev.lancemaintenance.spark.procedures;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.spark.connect.PySparkModule;
import java.time.Clock;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * The PySpark module on a session without a JVM gateway (Spark Connect): its Python tests
 * ({@code connector-spark/python/test_lance_maintenance.py}) check the exact {@code CALL} it sends,
 * the result's shape and the refusals, and that every argument it writes is a parameter of {@code
 * lance.cleanup} (and of every other procedure a wrapper calls), whose names are handed over here. {@code SparkConnectClusterIT} runs its SQL on a
 * Connect server.
 */
class PySparkConnectFallbackTest {
  @Test
  void theModulesPythonTestsPass() {
    String parameters = SparkCleanupProcedure.parameters(DataTypes.StringType).stream()
        .map(Parameter::name)
        .collect(Collectors.joining(","));

    String expireParameters = new SparkExpireVersionsProcedure(java.time.Clock.systemUTC()).parameters(Map.of()).stream()
        .map(Parameter::name)
        .collect(Collectors.joining(","));

    // Every procedure's parameters: procedure=a,b,c;procedure=...
    String everyProcedure = LanceProcedures.names().stream()
        .map(name -> name + "=" + LanceProcedures.find(new String[0], name, Clock.systemUTC()).orElseThrow()
            .parameters(Map.of()).stream().map(Parameter::name).collect(Collectors.joining(",")))
        .collect(Collectors.joining(";"));

    String output = PySparkModule.python(Map.of("LANCE_SQL_ARGUMENTS", parameters, "LANCE_EXPIRE_ARGUMENTS", expireParameters,
            "LANCE_PROCEDURE_PARAMETERS", everyProcedure),
        "-m", "unittest", "-v", "test_lance_maintenance");

    assertThat(output).containsPattern("Ran [1-9][0-9]* tests").contains("\nOK").doesNotContain("skipped");
  }
}
