package dev.lancemaintenance.format;

import com.google.protobuf.InvalidProtocolBufferException;
import dev.lancemaintenance.proto.TransactionProtos;
import dev.lancemaintenance.storage.TableStorage;

/** Reads a {@code _transactions/*.txn} file: a bare Transaction message, without framing. */
public final class TransactionReader {
  private TransactionReader() {}

  /** The summary of the transaction file at the table-relative {@code path}. */
  public static TransactionSummary read(TableStorage storage, String path) {
    byte[] bytes = storage.readFully(path);
    try {
      return ManifestDecoder.transaction(TransactionProtos.Transaction.parseFrom(bytes));
    } catch (InvalidProtocolBufferException e) {
      throw new CorruptTableException(storage.location().toString(), path,
          "transaction is not a valid protobuf message: " + e.getMessage(), e);
    }
  }
}
