package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One bucket on an {@link S3ProxyServer} for a test class: registered as a static
 * {@code @RegisterExtension} field, it starts the server and creates the bucket before the class's
 * own {@code @BeforeAll} methods and stops the server after its {@code @AfterAll} methods.
 */
public final class S3Bucket implements BeforeAllCallback, AfterAllCallback {
  private final String name;
  private S3ProxyServer server;

  public S3Bucket(String name) {
    this.name = name;
  }

  @Override
  public void beforeAll(ExtensionContext context) {
    server = S3ProxyServer.start();
    server.createBucket(name);
  }

  @Override
  public void afterAll(ExtensionContext context) {
    if (server != null) {
      server.close();
      server = null;
    }
  }

  /** The running server; only between the class's before-all and after-all. */
  public S3ProxyServer server() {
    if (server == null) {
      throw new IllegalStateException("the S3 server of bucket " + name + " is not running");
    }
    return server;
  }

  public String name() {
    return name;
  }

  /** {@code s3a://<bucket>/<key>}. */
  public String s3aUri(String key) {
    return S3ProxyServer.s3aUri(name, key);
  }

  public URI endpoint() {
    return server().endpoint();
  }

  public BlobStoreCalls calls() {
    return server().calls();
  }

  public Map<String, String> hadoopSettings() {
    return server().hadoopSettings();
  }

  public StorageConf storageConf() {
    return server().storageConf();
  }

  public StorageConf storageConf(int bulkDeletePageSize) {
    return server().storageConf(bulkDeletePageSize);
  }
}
