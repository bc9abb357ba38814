package dev.lancemaintenance.testing.stores;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.cleanup.ContractPolicy;
import dev.lancemaintenance.testing.OracleStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command line's {@code cleanup} as the tests of what {@code package} built run it (the
 * distribution's {@code bin/lance-maintenance}, {@code flink run} of a job jar): its arguments for a
 * table on the S3 server, and its {@code --json} result read back as the SDK's counters and the
 * files a dry run lists.
 */
public final class CleanupCommandLine {
  private static final ObjectMapper JSON = new ObjectMapper();

  private CleanupCommandLine() {}

  /**
   * {@code cleanup <uri> --before-timestamp-millis .. [--before-version ..] --json [--dry-run]
   * --conf k=v ...}: {@code policy}'s cutoffs and {@code conf} as Hadoop settings.
   */
  public static List<String> args(String uri, ContractPolicy policy, boolean dryRun, Map<String, String> conf) {
    List<String> args = new ArrayList<>(List.of(
        "cleanup", uri, "--before-timestamp-millis", Long.toString(policy.beforeTimestamp().toEpochMilli())));
    policy.beforeVersion().ifPresent(v -> args.addAll(List.of("--before-version", Long.toString(v))));
    args.add("--json");
    if (dryRun) {
      args.add("--dry-run");
    }
    conf.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    return args;
  }

  /**
   * The result object the command printed; {@code out} may hold other lines around it ({@code flink
   * run} prints the job's id before and its runtime after).
   */
  public static JsonNode result(String out) {
    int start = out.indexOf("{\"table\"");
    if (start < 0) {
      throw new AssertionError("no JSON result in the output:\n" + out);
    }
    try (JsonParser parser = JSON.createParser(out.substring(start))) {
      return JSON.readTree(parser);
    } catch (IOException e) {
      throw new UncheckedIOException("not a JSON result:\n" + out, e);
    }
  }

  /** The result's counters in the shape of the SDK's {@code RemovalStats}. */
  public static OracleStats stats(JsonNode result) {
    return new OracleStats(
        result.get("bytes_removed").asLong(),
        result.get("old_versions").asLong(),
        result.get("data_files_removed").asLong(),
        result.get("transaction_files_removed").asLong(),
        result.get("index_files_removed").asLong(),
        result.get("deletion_files_removed").asLong());
  }

  /** The table-relative paths a dry run listed; empty for a run that deleted. */
  public static Set<String> files(JsonNode result) {
    Set<String> paths = new TreeSet<>();
    if (result.has("files")) {
      result.get("files").forEach(f -> paths.add(f.get("path").asText()));
    }
    return paths;
  }
}
