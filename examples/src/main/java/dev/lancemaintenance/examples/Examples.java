package dev.lancemaintenance.examples;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code example <name> [table]}: runs one example's main class, so each can be tried from a shell. */
public final class Examples {
  /** An example's {@code main}. */
  @FunctionalInterface
  interface Main {
    void run(String[] args) throws Exception;
  }

  private static final Map<String, Main> EXAMPLES = byName();

  private static Map<String, Main> byName() {
    Map<String, Main> examples = new LinkedHashMap<>();
    examples.put("spark-sql", SparkSqlExample::main);
    examples.put("java-notebook", JavaNotebookExample::main);
    examples.put("scala-notebook", ScalaNotebookExample::main);
    examples.put("flink-job", FlinkJobExample::main);
    examples.put("flink-sql", FlinkSqlExample::main);
    return Collections.unmodifiableMap(examples);
  }

  public static final String USAGE =
      "example <" + String.join("|", EXAMPLES.keySet()) + "> [<table-uri>]\n"
          + "      run one of the examples (sources in examples/src/main) on the table, or on a fresh\n"
          + "      demo table under demo/ when none is given";

  private Examples() {}

  public static int run(List<String> args, PrintStream err) {
    Main example = args.isEmpty() ? null : EXAMPLES.get(args.get(0));
    if (example == null || args.size() > 2) {
      err.println("lance-maintenance: "
          + (args.isEmpty() ? "example needs a name" : "unknown example or extra arguments: " + args));
      err.println("usage: lance-maintenance " + USAGE);
      return 2;
    }
    try {
      example.run(args.subList(1, args.size()).toArray(String[]::new));
      return 0;
    } catch (Exception e) {
      err.println("lance-maintenance: " + e.getMessage());
      return 1;
    }
  }
}
