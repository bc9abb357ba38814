package dev.lancemaintenance.testing;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.lance.Ref;

/**
 * Runs the official SDK's cleanup ({@code Dataset.cleanupWithPolicy}), the reference our engine
 * must match. Run it on the table at the path it was written at: branch manifests record the main
 * table's absolute path, and the SDK protects a branch's fork point only when the paths agree
 * (see {@link TableTwins#swap}).
 */
public final class LanceOracle {
  private LanceOracle() {}

  /** Cleans the main line of the table at {@code table}. */
  public static OracleOutcome cleanup(Path table, OraclePolicy policy) {
    return run(table, Optional.empty(), policy);
  }

  /**
   * Cleans the main line with the table opened through exactly {@code uri}, another spelling of
   * its location ({@code file://} URI, trailing slash, {@code /./}): Lance 7 compares base paths as
   * raw strings, so the spelling changes what it keeps (docs/cleanup-semantics.md, section 4).
   */
  public static OracleOutcome cleanupThrough(String uri, OraclePolicy policy) {
    return run(uri, Optional.empty(), Map.of(), policy);
  }

  /** Cleans the main line of a table on an object store, opened with {@code storageOptions}. */
  public static OracleOutcome cleanup(String uri, Map<String, String> storageOptions, OraclePolicy policy) {
    return run(uri, Optional.empty(), storageOptions, policy);
  }

  /** Cleans branch {@code branch} (the SDK checks the branch out, then cleans it). */
  public static OracleOutcome cleanupBranch(Path table, String branch, OraclePolicy policy) {
    return run(table, Optional.of(branch), policy);
  }

  private static OracleOutcome run(Path table, Optional<String> branch, OraclePolicy policy) {
    return run(table.toAbsolutePath().normalize().toString(), branch, Map.of(), policy);
  }

  private static OracleOutcome run(
      String uri, Optional<String> branch, Map<String, String> storageOptions, OraclePolicy policy) {
    try (OpenedTable opened =
        branch.isPresent()
            ? OpenedTable.at(uri, Ref.ofBranch(branch.get()), storageOptions)
            : OpenedTable.latest(uri, Optional.empty(), storageOptions)) {
      return new OracleOutcome.Removed(
          OracleStats.of(opened.dataset().cleanupWithPolicy(policy.toSdk())));
    } catch (RuntimeException e) {
      // The SDK reports refusals (tagged old versions, ...) as RuntimeExceptions with its text.
      return new OracleOutcome.Failed(String.valueOf(e.getMessage()));
    }
  }
}
