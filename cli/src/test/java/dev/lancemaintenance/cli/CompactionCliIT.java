package dev.lancemaintenance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.testing.LanceTableFixture;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code compact} and {@code optimize} from the command line, and the optional SDK: without
 * {@code org.lance:lance-core} on the classpath cleanup still runs and compact names the artifact.
 */
class CompactionCliIT {
  @TempDir Path dir;

  private LanceTableFixture smallTable() {
    LanceTableFixture table = LanceTableFixture.create(dir.resolve("t"));
    for (int i = 0; i < 6; i++) {
      table.append(3);
    }
    return table;
  }

  @Test
  void optimizePrintsBothSetsOfCountersAsJson() {
    LanceTableFixture table = smallTable();
    Run run = run(MaintenanceCli.class.getClassLoader(), "optimize", table.uri(), "--older-than", "0s", "--json");

    assertThat(run.exitCode()).as("exit code; stderr: " + run.err()).isZero();
    // Every version but the latest goes, the compaction's own earlier commit among them: the
    // window of 0 s is measured back from when the cleanup starts, after compacting.
    assertThat(run.out())
        .contains("\"fragments_removed\":6", "\"fragments_added\":1", "\"net_bytes\":")
        .contains("\"old_versions\":" + (table.latestVersion() - 1));
    assertThat(table.versions()).as("versions left").containsExactly(table.latestVersion());
    assertThat(table.countRows()).as("rows").isEqualTo(18);
  }

  /** Options come from the catalogues: a misspelt, repeated or foreign one is a usage error, before anything runs. */
  @Test
  void aMistakeInOptimizesOptionsIsAUsageErrorAndChangesNothing() {
    LanceTableFixture table = smallTable();
    java.util.Set<String> before = new java.util.TreeSet<>(table.listFiles());
    String[][] mistakes = {
      {"--olderthan", "0s"},
      {"--older-than", "0s", "--older-than", "1d"},
      {"--older-than", "0s", "--branch", "dev"},
      {"--older-than", "0s", "--target-rows-per-fragment", "1M"},
      {"--older-than", "0s", "--max-concurrent-deletes", "0"},
    };
    for (String[] mistake : mistakes) {
      List<String> args = new ArrayList<>(List.of("optimize", table.uri()));
      args.addAll(List.of(mistake));
      Run run = run(MaintenanceCli.class.getClassLoader(), args.toArray(new String[0]));

      assertThat(run.exitCode()).as(String.join(" ", mistake) + "; stderr: " + run.err()).isEqualTo(2);
      String named = mistake[mistake.length - 2].substring(2);
      assertThat(run.err()).as(String.join(" ", mistake)).containsAnyOf(named, named.replace('-', '_'));
    }
    assertThat(new java.util.TreeSet<>(table.listFiles())).as("nothing written or deleted").isEqualTo(before);
  }

  @Test
  void compactDryRunPrintsThePlanAndWritesNothing() {
    LanceTableFixture table = smallTable();
    long latest = table.latestVersion();
    Run run = run(MaintenanceCli.class.getClassLoader(), "compact", table.uri(), "--dry-run");

    assertThat(run.exitCode()).as("exit code; stderr: " + run.err()).isZero();
    assertThat(run.out()).contains("fragments_to_merge", "task_0", "fragments [0, 1, 2, 3, 4, 5]");
    assertThat(table.latestVersion()).as("latest version").isEqualTo(latest);
  }

  @Test
  void withoutTheSdkCleanupRunsAndCompactNamesTheMissingArtifact() throws Exception {
    LanceTableFixture table = smallTable();
    try (URLClassLoader withoutSdk = classpathWithoutLanceSdk()) {
      Run cleanup = run(withoutSdk, "cleanup", table.uri(), "--older-than", "0s");
      Run compact = run(withoutSdk, "compact", table.uri());

      assertThat(cleanup.exitCode()).as("cleanup exit code; stderr: " + cleanup.err()).isZero();
      assertThat(compact.exitCode()).as("compact exit code").isEqualTo(1);
      assertThat(compact.err()).contains("Cannot compact", "org.lance:lance-core:7.0.0", "Cleanup does not need it");
    }
    assertThat(table.versions()).as("versions after the SDK-free cleanup").containsExactly(table.latestVersion());
  }

  /** The test classpath minus every jar of the Lance SDK, isolated from this class loader. */
  private static URLClassLoader classpathWithoutLanceSdk() throws MalformedURLException {
    String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    List<URL> urls = new ArrayList<>();
    for (String entry : classpath.split(File.pathSeparator)) {
      if (!entry.contains(File.separator + "org" + File.separator + "lance" + File.separator)) {
        urls.add(new File(entry).toURI().toURL());
      }
    }
    URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
    assertThat(loader.getResource("org/lance/Dataset.class")).as("SDK class on the reduced classpath").isNull();
    return loader;
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(ClassLoader loader, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    // The command line finds its engines through ServiceLoader, which asks the context loader.
    thread.setContextClassLoader(loader);
    try {
      Class<?> cli = Class.forName(MaintenanceCli.class.getName(), true, loader);
      Method execute = cli.getMethod("execute", List.class, PrintStream.class, PrintStream.class);
      int code = (int) execute.invoke(null, List.of(args), new PrintStream(out, true), new PrintStream(err, true));
      return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    } finally {
      thread.setContextClassLoader(previous);
    }
  }
}
