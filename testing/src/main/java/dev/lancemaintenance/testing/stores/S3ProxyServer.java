package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.StorageConf;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.UnaryOperator;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.BlobStoreContext;
import org.jclouds.blobstore.TransientApiMetadata;
import org.jclouds.blobstore.config.LocalBlobStore;
import org.jclouds.blobstore.domain.Blob;

/**
 * An S3-compatible server in the test JVM: s3proxy over jclouds' in-memory ("transient") blob
 * store, on 127.0.0.1 and a free port, checking AWS V4 signatures with fixed test keys (so every
 * client really signs its requests). Objects get their last-modified time when they are written,
 * as on S3, which is what Lance's cleanup compares with manifest timestamps.
 *
 * <p>Gives each client what it needs to reach it: Hadoop s3a settings ({@link #hadoopSettings()})
 * and Lance storage options ({@link #lanceStorageOptions()}). Buckets are created with {@link
 * #createBucket}; s3a names them {@code s3a://bucket/...}, Lance {@code s3://bucket/...}.
 */
public final class S3ProxyServer implements AutoCloseable {
  public static final String ACCESS_KEY = "lance-maintenance-test";
  public static final String SECRET_KEY = "lance-maintenance-test-secret";
  /** s3proxy accepts any region in signatures; clients still need one. */
  public static final String REGION = "us-east-1";

  private final BlobStoreContext context;
  private final BlobStore store;
  private final S3Proxy proxy;
  private final URI endpoint;
  private final BlobStoreCalls calls;

  private S3ProxyServer(BlobStoreContext context, BlobStore store, S3Proxy proxy, URI endpoint, BlobStoreCalls calls) {
    this.context = context;
    this.store = store;
    this.proxy = proxy;
    this.endpoint = endpoint;
    this.calls = calls;
  }

  /** Starts the server; the caller closes it. */
  public static S3ProxyServer start() {
    return start(UnaryOperator.identity());
  }

  /**
   * Starts a server whose listings answer from a sorted index of the keys ({@link SortedKeyListing}),
   * page by page in time proportional to the page instead of to the keys under the prefix: for
   * benchmarks on tables of a million objects. The same answers; objects must be written through
   * {@link #blobStore()} or the server.
   */
  public static S3ProxyServer startIndexed() {
    return start(SortedKeyListing::over);
  }

  private static S3ProxyServer start(UnaryOperator<BlobStore> listing) {
    BlobStoreContext context =
        // By API metadata, not by name: a lookup by name loads every provider registered on the
        // class path, and s3proxy registers an Azure one whose jclouds classes we leave out.
        ContextBuilder.newBuilder(new TransientApiMetadata())
            .credentials("identity", "credential")
            .overrides(new Properties())
            .build(BlobStoreContext.class);
    BlobStoreCalls calls = new BlobStoreCalls();
    BlobStore store = listing.apply(context.getBlobStore());
    S3Proxy proxy =
        S3Proxy.builder()
            .blobStore(calls.wrap(store))
            .endpoint(URI.create("http://127.0.0.1:0"))
            .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY)
            // Newer SDKs send headers s3proxy does not know (checksums, SDK markers); without this
            // it rejects, among others, the bulk DeleteObjects requests of s3a.
            .ignoreUnknownHeaders(true)
            .build();
    try {
      proxy.start();
      while (!"STARTED".equals(proxy.getState())) {
        Thread.sleep(10);
      }
    } catch (Exception e) {
      context.close();
      throw new IllegalStateException("cannot start s3proxy on 127.0.0.1", e);
    }
    return new S3ProxyServer(context, store, proxy, URI.create("http://127.0.0.1:" + proxy.getPort()), calls);
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return endpoint;
  }

  /** Creates an empty bucket. */
  public void createBucket(String bucket) {
    if (!blobStore().createContainerInLocation(null, bucket)) {
      throw new IllegalStateException("bucket " + bucket + " exists already at " + endpoint);
    }
  }

  /** What clients asked of the server (delete requests and their sizes). */
  public BlobStoreCalls calls() {
    return calls;
  }

  /**
   * The jclouds view of the stored objects, for assertions and writes that bypass every S3 client
   * (and {@link #calls()}).
   */
  public BlobStore blobStore() {
    return store;
  }

  /**
   * Writes an object no table version references (an orphan, for the tests' listings), then waits
   * until the clock has passed its modification time, which the store may round up to the second:
   * a report or a cut-off taken after this returns is newer than the object.
   */
  public void putOrphan(String bucket, String key) {
    byte[] content = "never committed".getBytes(StandardCharsets.UTF_8);
    BlobStore store = blobStore();
    store.putBlob(bucket, store.blobBuilder(key).payload(content).contentLength(content.length).build());
    // The next whole second: listings may show the time rounded up to it.
    Instant modified = store.blobMetadata(bucket, key).getLastModified().toInstant()
        .truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plusSeconds(1);
    while (!Instant.now().isAfter(modified)) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  /**
   * Sets the store time (last-modified) of a stored object, which no S3 request can: a table
   * uploaded from a local copy must keep its files' times, because cleanup compares them with its
   * versions' commit times (an object newer than the earliest retained version is never a
   * candidate). jclouds' in-memory store stamps every write with the clock and offers no call to
   * change it, so this reaches its stored blob by reflection (jclouds 2.7.0:
   * {@code LocalBlobStore.storageStrategy}, {@code TransientStorageStrategy.containerToBlobs}), for
   * benchmarks only.
   */
  public void backdate(String bucket, String key, Instant modified) {
    Blob stored = storedBlobs(bucket).get(key);
    if (stored == null) {
      throw new IllegalArgumentException("no object " + key + " in bucket " + bucket + " at " + endpoint);
    }
    Date time = Date.from(modified);
    stored.getMetadata().setLastModified(time);
    stored.getAllHeaders().replaceValues("Last-Modified",
        List.of(DateTimeFormatter.RFC_1123_DATE_TIME.format(modified.atZone(ZoneOffset.UTC))));
  }

  @SuppressWarnings("unchecked")
  private Map<String, Blob> storedBlobs(String bucket) {
    try {
      // The context hands out a proxy; the store behind it is the injector's singleton.
      Object strategy = field(context.utils().injector().getInstance(LocalBlobStore.class), "storageStrategy");
      Map<String, Map<String, Blob>> containers = (Map<String, Map<String, Blob>>) field(strategy, "containerToBlobs");
      Map<String, Blob> blobs = containers.get(bucket);
      if (blobs == null) {
        throw new IllegalArgumentException("no bucket " + bucket + " at " + endpoint);
      }
      return blobs;
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("jclouds' in-memory store is not laid out as in 2.7.0; cannot set store times", e);
    }
  }

  private static Object field(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }

  /** The URI Hadoop's s3a client opens: {@code s3a://bucket/key}. */
  public static String s3aUri(String bucket, String key) {
    return "s3a://" + bucket + "/" + key;
  }

  /** The URI the Lance SDK opens: {@code s3://bucket/key}. */
  public static String lanceUri(String bucket, String key) {
    return "s3://" + bucket + "/" + key;
  }

  /**
   * s3a settings for this server: path-style requests to the endpoint over plain HTTP with the
   * test keys, a fresh client per {@code FileSystem.newInstance} (no JVM-wide cache shared between
   * tests), and few retries so that a broken request fails the test fast instead of backing off
   * for minutes.
   */
  public Map<String, String> hadoopSettings() {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fs.s3a.endpoint", endpoint.toString());
    settings.put("fs.s3a.endpoint.region", REGION);
    settings.put("fs.s3a.path.style.access", "true");
    settings.put("fs.s3a.connection.ssl.enabled", "false");
    settings.put("fs.s3a.access.key", ACCESS_KEY);
    settings.put("fs.s3a.secret.key", SECRET_KEY);
    settings.put("fs.s3a.aws.credentials.provider",
        "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider");
    settings.put("fs.s3a.impl.disable.cache", "true");
    settings.put("fs.s3a.attempts.maximum", "1");
    settings.put("fs.s3a.retry.limit", "2");
    settings.put("fs.s3a.retry.interval", "50ms");
    settings.put("fs.s3a.retry.throttle.limit", "2");
    settings.put("fs.s3a.retry.throttle.interval", "50ms");
    // Plain milliseconds: s3a 3.4 reads these as durations, 3.3 (Spark 3.5's) as integers.
    settings.put("fs.s3a.connection.establish.timeout", "5000");
    settings.put("fs.s3a.connection.timeout", "20000");
    return settings;
  }

  /** {@link #hadoopSettings()} as the storage configuration our engines ship to their tasks. */
  public StorageConf storageConf() {
    return StorageConf.of(hadoopSettings());
  }

  /** {@link #hadoopSettings()} plus a DeleteObjects page size of {@code keys}. */
  public StorageConf storageConf(int bulkDeletePageSize) {
    Map<String, String> settings = new LinkedHashMap<>(hadoopSettings());
    settings.put("fs.s3a.bulk.delete.page.size", Integer.toString(bulkDeletePageSize));
    return StorageConf.of(settings);
  }

  /** Storage options for the Lance SDK (keys of the Rust object_store S3 builder). */
  public Map<String, String> lanceStorageOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("aws_access_key_id", ACCESS_KEY);
    options.put("aws_secret_access_key", SECRET_KEY);
    options.put("aws_endpoint", endpoint.toString());
    options.put("aws_region", REGION);
    options.put("aws_virtual_hosted_style_request", "false");
    options.put("allow_http", "true");
    return options;
  }

  @Override
  public void close() {
    try {
      proxy.stop();
    } catch (Exception e) {
      throw new IllegalStateException("cannot stop s3proxy at " + endpoint, e);
    } finally {
      context.close();
    }
  }
}
