package dev.lancemaintenance.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PySpark example and the module it imports compile under the machine's python3. PySpark
 * itself is not installed in CI, so they are not run; the module's calls are the notebook API the
 * Java examples run. Skipped (not failed) where there is no python3.
 */
class PySparkExampleTest {
  private static final Path EXAMPLE = Path.of("python", "pyspark_notebook_example.py");
  private static final Path MODULE = Path.of("..", "connector-spark", "python", "lance_maintenance.py");

  @TempDir Path dir;

  @Test
  void exampleAndModuleCompile() throws Exception {
    assumeTrue(python3Runs(), "no python3 on this machine");

    for (Path source : List.of(EXAMPLE, MODULE)) {
      Process compile =
          new ProcessBuilder("python3", "-c",
                  "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                  source.toString(), dir.resolve("out.pyc").toString())
              .redirectErrorStream(true)
              .start();
      String output = new String(compile.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(compile.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(compile.exitValue()).as("python3 py_compile %s: %s", source, output).isZero();
    }
  }

  @Test
  void exampleUsesOnlyTheModulesPublicMethods() throws IOException {
    String example = Files.readString(EXAMPLE);
    String module = Files.readString(MODULE);

    assertThat(example).contains("from lance_maintenance import LanceMaintenance");
    for (String method : List.of("cleanup_dry_run", "cleanup")) {
      assertThat(example).contains("maintenance." + method + "(");
      assertThat(module).contains("def " + method + "(self");
    }
  }

  private static boolean python3Runs() {
    try {
      Process version = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
      version.getInputStream().readAllBytes();
      return version.waitFor(30, TimeUnit.SECONDS) && version.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
