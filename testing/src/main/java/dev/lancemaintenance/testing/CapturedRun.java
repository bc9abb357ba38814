package dev.lancemaintenance.testing;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One run of an in-process entry point (a {@code main} that takes its streams), with what it printed. */
public record CapturedRun(int exit, String out, String err) {

  /** An entry point that prints to the streams it is given and returns its exit code. */
  @FunctionalInterface
  public interface EntryPoint {
    int run(PrintStream out, PrintStream err);
  }

  public static CapturedRun of(EntryPoint entryPoint) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = entryPoint.run(outStream, errStream);
    }
    return new CapturedRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- out\n" + out + "--- err\n" + err;
  }
}
