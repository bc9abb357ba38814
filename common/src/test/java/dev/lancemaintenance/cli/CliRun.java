package dev.lancemaintenance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One command line run through {@link MaintenanceCli#execute}, with what it printed. */
record CliRun(int exitCode, String out, String err) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static CliRun of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream outStream = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = MaintenanceCli.execute(List.of(args), outStream, errStream);
    }
    return new CliRun(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Standard output parsed as the one JSON object {@code --json} prints. */
  JsonNode json() {
    try {
      return MAPPER.readTree(out);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + out, e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- out\n" + out + "--- err\n" + err;
  }
}
