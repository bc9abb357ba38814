package dev.lancemaintenance.examples;

import java.nio.file.Path;
import java.nio.file.Paths;

/** The table an example cleans: the one named on its command line, else a fresh demo table. */
final class ExampleTable {
  private ExampleTable() {}

  /** {@code args[0]} when given; otherwise writes a demo table at {@code demo/<name>.lance}. */
  static String fromArgs(String[] args, String name) {
    if (args.length > 0) {
      return args[0];
    }
    Path root = Paths.get("demo", name + ".lance").toAbsolutePath().normalize();
    DemoTable.prepare(root);
    long versions = DemoTable.write(root, 6, 100);
    System.out.printf("Wrote a demo table with %d versions at %s%n", versions, root);
    return root.toString();
  }
}
