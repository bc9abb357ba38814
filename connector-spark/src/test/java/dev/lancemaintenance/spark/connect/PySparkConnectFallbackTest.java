package dev.lancemaintenance.spark.connect;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.cleanup.CleanupOption;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The PySpark module on a session without a JVM gateway (Spark Connect): its Python tests
 * ({@code connector-spark/python/test_lance_maintenance.py}) check the exact {@code CALL} it sends,
 * the result's shape and the refusals, and that every argument it writes is one of the option
 * catalogue's SQL names, handed over here. {@link SparkConnectClusterIT} runs its SQL on a server.
 */
class PySparkConnectFallbackTest {
  @Test
  void theModulesPythonTestsPass() {
    String output = PySparkModule.python(
        Map.of("LANCE_SQL_ARGUMENTS", String.join(",", CleanupOption.sqlNames())),
        "-m", "unittest", "-v", "test_lance_maintenance");

    assertThat(output).containsPattern("Ran [1-9][0-9]* tests").contains("\nOK").doesNotContain("skipped");
  }
}
