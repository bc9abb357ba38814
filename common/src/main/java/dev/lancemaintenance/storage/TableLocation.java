package dev.lancemaintenance.storage;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The root of a Lance table, parsed once.
 *
 * <p>Accepts URIs ({@code s3a://bucket/t.lance}, {@code hdfs://nn:8020/t}, {@code file:/tmp/t}) and
 * local paths ({@code /tmp/t}, {@code ./t}), which become absolute {@code file:} URIs. The same
 * directory can be spelled many ways, and Lance records other tables' roots (base paths of branches
 * and shallow clones) in whatever spelling the writer used: {@link #contains} compares canonical
 * forms so that a branch's reference to its parent is recognised however either was spelled (Lance
 * itself compares raw strings and can lose a branch's fork point; see lance-7-observations.md).
 *
 * <p>{@link #toString()} drops user-info and query strings so that credentials never reach logs,
 * errors or results.
 */
public final class TableLocation implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String uri;
  private final String canonical;

  private TableLocation(String uri, String canonical) {
    this.uri = uri;
    this.canonical = canonical;
  }

  /** Parses a table URI or local path. */
  public static TableLocation of(String tableUri) {
    Objects.requireNonNull(tableUri, "tableUri");
    String trimmed = tableUri.trim();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException("Table location must not be empty");
    }
    refuseCredentials(trimmed);
    URI parsed = toUri(trimmed);
    String path = stripTrailingSlashes(parsed.getPath() == null ? "" : parsed.getPath());
    String scheme = parsed.getScheme();
    StringBuilder uri = new StringBuilder(scheme).append(':');
    if (parsed.getRawAuthority() != null) {
      uri.append("//").append(parsed.getRawAuthority());
    }
    uri.append(path);
    return new TableLocation(uri.toString(), canonicalKey(parsed, path));
  }

  /**
   * A secret in the URI ({@code s3a://KEY:SECRET@bucket/t}) would reach every library that prints
   * the URI (Hadoop warns with it in full), so it is refused before anything sees it; the message
   * says where credentials belong and never repeats them.
   */
  private static void refuseCredentials(String location) {
    int at = userInfoEnd(location);
    if (at >= 0) {
      throw new IllegalArgumentException(
          "Table URI " + redact(location) + " carries credentials (user-info before '@'): refused so that they"
              + " are never printed or logged. Give them as store settings instead: --conf fs.s3a.access.key=..."
              + " --conf fs.s3a.secret.key=... on the command line, the options map of a procedure or of the Java"
              + " API, spark.hadoop.fs.s3a.* in Spark, storage.fs.s3a.* in a Flink catalog, or the store's"
              + " credential provider chain (environment, instance profile)");
    }
  }

  /**
   * The index of the {@code '@'} that ends user-info in {@code location}, or -1: user-info proper,
   * or {@code key:secret@} whose unencoded secret holds a {@code '/'} (but not {@code host:port/a@b}).
   */
  private static int userInfoEnd(String location) {
    int schemeEnd = location.indexOf("://");
    int at = location.indexOf('@');
    if (schemeEnd < 0 || at < schemeEnd || isWindowsDrive(location)) {
      return -1;
    }
    String beforeAt = location.substring(schemeEnd + 3, at);
    int slash = beforeAt.indexOf('/');
    String firstSegment = slash < 0 ? beforeAt : beforeAt.substring(0, slash);
    int colon = firstSegment.indexOf(':');
    boolean credentials = slash < 0 || (colon >= 0 && !firstSegment.substring(colon + 1).matches("\\d*"));
    return credentials ? at : -1;
  }

  private static URI toUri(String location) {
    boolean hasScheme = location.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") && !isWindowsDrive(location);
    if (!hasScheme) {
      return Paths.get(location).toAbsolutePath().normalize().toUri();
    }
    try {
      URI uri = new URI(location).normalize();
      if ("file".equalsIgnoreCase(uri.getScheme())) {
        return Paths.get(uri).toAbsolutePath().normalize().toUri();
      }
      if (uri.getPath() != null && uri.getPath().contains("/../")) {
        throw new IllegalArgumentException("Table location must not contain '..': " + redact(location));
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("Not a valid table URI: " + redact(location), e);
    }
  }

  private static boolean isWindowsDrive(String location) {
    return location.length() > 2 && location.charAt(1) == ':' && Character.isLetter(location.charAt(0));
  }

  private static String canonicalKey(URI uri, String path) {
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    // s3, s3a and s3n name the same bucket: Lance writes s3:// into base paths, Hadoop reads s3a://.
    if (scheme.equals("s3a") || scheme.equals("s3n")) {
      scheme = "s3";
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
    return scheme + "://" + host + port + path;
  }

  private static String stripTrailingSlashes(String path) {
    String result = path;
    while (result.length() > 1 && result.endsWith("/")) {
      result = result.substring(0, result.length() - 1);
    }
    return result;
  }

  /** The full URI to hand to Hadoop (may contain user-info; never log it). */
  public String uri() {
    return uri;
  }

  /** The URI of a table-relative path below this root. */
  public String resolve(String relativePath) {
    if (relativePath.isEmpty()) {
      return uri;
    }
    return uri + "/" + relativePath;
  }

  /**
   * The table-relative path of {@code otherLocation} (a URI or absolute path, as Lance records base
   * paths) when it lies at or below this root; empty otherwise. The root itself is {@code ""}.
   */
  public Optional<String> relativize(String otherLocation) {
    String other;
    try {
      other = TableLocation.of(otherLocation).canonical;
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    if (other.equals(canonical)) {
      return Optional.of("");
    }
    String prefix = canonical.endsWith("/") ? canonical : canonical + "/";
    if (other.startsWith(prefix)) {
      return Optional.of(other.substring(prefix.length()));
    }
    return Optional.empty();
  }

  /** The redacted URI of a table-relative path: for messages. */
  public String resolveRedacted(String relativePath) {
    return redact(resolve(relativePath));
  }

  /** Whether {@code otherLocation} names this root or a path below it. */
  public boolean contains(String otherLocation) {
    return relativize(otherLocation).isPresent();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableLocation other && canonical.equals(other.canonical);
  }

  @Override
  public int hashCode() {
    return canonical.hashCode();
  }

  /** The location without user-info or query: safe for logs, errors and results. */
  @Override
  public String toString() {
    return redact(uri);
  }

  /** Drops user-info ({@code user:secret@}) and query strings from a location string. */
  public static String redact(String location) {
    int at = userInfoEnd(location);
    String result = at < 0 ? location : location.substring(0, location.indexOf("://") + 3) + location.substring(at + 1);
    int query = result.indexOf('?');
    return query < 0 ? result : result.substring(0, query);
  }
}
