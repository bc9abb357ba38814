package dev.lancemaintenance.storage;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Whether an s3a PUT waits for {@code 100 Continue} before it sends its body: by default it no
 * longer does for our file systems, one round trip less per PUT.
 *
 * <p>Every file this project writes on a store is small (a lease, a run record, a ledger segment
 * and commit, a decided part, a plan), and most are written in a row, each one waiting for the
 * one before. With {@code Expect: 100-continue} the client sends the headers, waits a round trip
 * for the store's {@code 100 Continue}, and only then sends the body: two round trips per PUT.
 * The handshake spares a client from sending a large body the store would refuse; for a
 * kilobyte it only costs the wait.
 *
 * <p>Hadoop's switch, {@value #EXPECT_CONTINUE} (hadoop-aws 3.4.2), does not reach the wire with
 * the AWS SDK it is built with (2.29.52): it configures the Apache HTTP client, but the SDK's S3
 * {@code StreamingRequestInterceptor} puts the header on every {@code PutObject} and {@code
 * UploadPart} itself, and the HTTP client waits whenever a request carries it. So when the option
 * is off (our default, unless the configuration sets it) the s3a client also gets {@link
 * RemoveExpectContinue}, which takes the header off again before the request is signed and sent.
 *
 * <p>Nothing else about a request changes: a conditional create still carries {@code
 * If-None-Match: *} and the store still answers 412 when the key exists (it reads the body first),
 * and a refused request is retried or failed as before. It needs s3a's auditing, which adds
 * {@value #EXECUTION_INTERCEPTORS} to the client (on by default, {@code fs.s3a.audit.enabled});
 * Hadoop 3.3's s3a (SDK v1) knows neither key and ignores both.
 */
final class S3ExpectContinue {
  /** Hadoop's option; {@code true} keeps the handshake. */
  static final String EXPECT_CONTINUE = "fs.s3a.connection.expect.continue";
  /** Interceptors s3a's audit manager adds to the client, after the SDK's own. */
  static final String EXECUTION_INTERCEPTORS = "fs.s3a.audit.execution.interceptors";
  /**
   * {@link RemoveExpectContinue}'s name: naming the class itself would load it, and with it the
   * SDK's interface, on every storage, s3a or not.
   */
  static final String INTERCEPTOR = "dev.lancemaintenance.storage.RemoveExpectContinue";

  private S3ExpectContinue() {}

  /**
   * The configuration to open an s3a file system with: {@code base} itself when the handshake is
   * kept (set to {@code true}) or the table is not on s3a, otherwise a copy with the option off and
   * the interceptor added to any already configured.
   */
  static Configuration configure(String scheme, Configuration base) {
    if (!scheme.equals("s3a") || base.getBoolean(EXPECT_CONTINUE, false)) {
      return base;
    }
    Configuration conf = new Configuration(base);
    conf.setBoolean(EXPECT_CONTINUE, false);
    List<String> interceptors = new ArrayList<>(List.of(conf.getTrimmedStrings(EXECUTION_INTERCEPTORS)));
    if (!interceptors.contains(INTERCEPTOR)) {
      interceptors.add(INTERCEPTOR);
      conf.set(EXECUTION_INTERCEPTORS, String.join(",", interceptors));
    }
    return conf;
  }
}
