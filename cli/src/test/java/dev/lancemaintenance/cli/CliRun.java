package dev.lancemaintenance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.testing.CapturedRun;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** One command line run through {@link MaintenanceCli#execute}, with what it printed. */
record CliRun(int exitCode, String out, String err) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  static CliRun of(String... args) {
    CapturedRun run = CapturedRun.of((out, err) -> MaintenanceCli.execute(List.of(args), out, err));
    return new CliRun(run.exit(), run.out(), run.err());
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
