package dev.lancemaintenance.format;

import java.util.Objects;

/**
 * What a transaction did, in brief: the version it started from and its operation.
 *
 * @param readVersion the version the writer read
 * @param uuid the transaction's id, also part of its {@code _transactions/} file name
 * @param operation Lance's name of the operation ({@code Append}, {@code Rewrite},
 *     {@code ReserveFragments}, ...); {@code Unknown} for one newer than this reader
 */
public record TransactionSummary(long readVersion, String uuid, String operation) {
  public TransactionSummary {
    Objects.requireNonNull(uuid, "uuid");
    Objects.requireNonNull(operation, "operation");
  }
}
