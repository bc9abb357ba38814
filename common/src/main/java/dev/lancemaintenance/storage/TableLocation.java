package dev.lancemaintenance.storage;

import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The root of a Lance table, parsed once, and its identity: the one home of "is this path this
 * table?".
 *
 * <p>Accepts URIs ({@code s3a://bucket/t.lance}, {@code hdfs://nn:8020/t}, {@code file:/tmp/t}) and
 * local paths ({@code /tmp/t}, {@code ./t}), which become absolute {@code file:} URIs. The same
 * directory can be spelled many ways, and Lance records other tables' roots (base paths of branches
 * and shallow clones) in whatever spelling the writer used. Every location therefore carries a
 * canonical identity: scheme ({@code s3a}/{@code s3n} are {@code s3}), lower-case host, absolute
 * path without {@code .}, {@code ..} or trailing slash, and on the local file system the real path
 * (symbolic links resolved, for the part of the path that exists), so that a table reached through
 * a link and through its real path is one table. {@link #relativize} compares base paths with this
 * identity, so a branch's reference to its parent is recognised however either was spelled (Lance
 * itself compares raw strings and can lose a branch's fork point; see lance-7-observations.md and
 * docs/cleanup-semantics.md, section 4). A base path that cannot be resolved with certainty counts
 * as this table: keeping a file too many is safe, deleting one a branch reads is not.
 *
 * <p>{@link #toString()} drops user-info and query strings so that credentials never reach logs,
 * errors or results.
 */
public final class TableLocation implements Serializable {
  private static final long serialVersionUID = 1L;

  private static final String LANCE_DIR_SUFFIX = ".lance";
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:.*", Pattern.DOTALL);

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
    String identityPath = "file".equalsIgnoreCase(scheme) ? realPath(path) : path;
    return new TableLocation(uri.toString(), canonicalKey(parsed, identityPath));
  }

  /**
   * The real path of a local path: symbolic links resolved in the longest prefix that exists, the
   * rest appended as given (a table not written yet, a base path that names nothing any more).
   */
  private static String realPath(String path) {
    Path absolute = Paths.get(path);
    Path existing = absolute;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing == null) {
      return path;
    }
    try {
      Path real = existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
      return stripTrailingSlashes(real.toString());
    } catch (IOException | SecurityException e) {
      // Unreadable on the way: the lexical path is the best identity there is.
      return path;
    }
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
    boolean hasScheme = SCHEME.matcher(location).matches() && !isWindowsDrive(location);
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

  /**
   * The table's canonical identity, the same for every spelling of it (what {@link #equals}
   * compares): for fingerprints of what belongs to this table. Never holds credentials (refused at
   * parse), but hash it before writing it anywhere.
   */
  public String identity() {
    return canonical;
  }

  /** The full URI to hand to Hadoop (may contain user-info; never log it). */
  public String uri() {
    return uri;
  }

  /**
   * The root as a local path when the table is on this machine's file system ({@code file:}), else
   * empty: where {@link TableStorages} serves the table with java.nio instead of Hadoop.
   */
  public Optional<Path> localPath() {
    boolean local = uri.regionMatches(true, 0, "file:", 0, 5) && !uri.startsWith("//", 5);
    return local ? Optional.of(Paths.get(uri.substring(5))) : Optional.empty();
  }

  /** The URI of a table-relative path below this root. */
  public String resolve(String relativePath) {
    if (relativePath.isEmpty()) {
      return uri;
    }
    return uri + "/" + relativePath;
  }

  /**
   * The table-relative path of {@code basePath} (a base path as Lance records it: a URI, an
   * absolute path or a path relative to the writer's working directory) when it names this root or
   * a directory below it ({@code ""} for the root itself); empty when it names another place.
   *
   * <ul>
   *   <li>Absolute paths and URIs are compared by identity; a percent-encoded spelling of a local path
   *       ({@code /t/my%20table}) is tried decoded too.
   *   <li>A relative path ({@code ./db/t.lance}, {@code ../db/t.lance}, {@code t.lance/tree/b1}) is
   *       relative to a working directory we do not know. It is this table when it resolves to it
   *       from ours; otherwise the part after its leading {@code ..} segments is matched against the
   *       last segments of this root ({@code db/t.lance}), and what follows is the path inside the
   *       table ({@code tree/b1}); a percent-encoded one is tried decoded too. One that matches
   *       nothing cannot be resolved with certainty and counts as this table, with what follows its
   *       last {@code *.lance} segment as the path inside ({@code ./old/t.lance/tree/b1} is {@code
   *       tree/b1}).
   *   <li>A path that cannot be parsed counts as this table.
   * </ul>
   */
  public Optional<String> relativize(String basePath) {
    return locate(basePath).map(PathInTable::path);
  }

  /**
   * Where {@code basePath} lies in this table, as {@link #relativize}, and whether that is certain.
   * It is not when the base path counts as this table only because it cannot be resolved (a relative
   * path naming no part of this root, a path that does not parse): its files are then kept if this
   * table has them, but a file it names that this table lacks is no sign of damage here.
   */
  public Optional<PathInTable> locate(String basePath) {
    String trimmed = basePath.trim();
    if (trimmed.isEmpty()) {
      return Optional.of(PathInTable.certain(""));
    }
    boolean hasScheme = SCHEME.matcher(trimmed).matches() && !isWindowsDrive(trimmed);
    if (!hasScheme && !trimmed.startsWith("/")) {
      return Optional.of(locateRelative(trimmed));
    }
    boolean parsedAny = false;
    for (String spelling : spellings(trimmed)) {
      Optional<String> other = canonicalOf(spelling);
      if (other.isEmpty()) {
        continue;
      }
      parsedAny = true;
      Optional<String> relative = below(other.get());
      if (relative.isPresent()) {
        return relative.map(PathInTable::certain);
      }
    }
    // Unparseable in every spelling: we cannot tell where it points, so it counts as this table.
    return parsedAny ? Optional.empty() : Optional.of(PathInTable.uncertain(""));
  }

  private PathInTable locateRelative(String relative) {
    Optional<String> fromHere = canonicalOf(relative).flatMap(this::below);
    if (fromHere.isPresent()) {
      return PathInTable.certain(fromHere.get());
    }
    List<List<String>> rootTails = List.of(segmentsOf(pathOf(canonical)), segmentsOf(pathOf(uri)));
    for (String spelling : spellings(relative)) {
      List<String> tail = withoutLeadingParents(normalizedSegments(spelling));
      for (List<String> rootSegments : rootTails) {
        for (int k = Math.min(tail.size(), rootSegments.size()); k > 0; k--) {
          if (tail.subList(0, k).equals(rootSegments.subList(rootSegments.size() - k, rootSegments.size()))) {
            return PathInTable.certain(String.join("/", tail.subList(k, tail.size())));
          }
        }
      }
    }
    // Names no part of this root (a renamed or moved table?): the writer's directory is unknown, so
    // it may still be us. Keep: it counts as this table, and what follows its last *.lance segment
    // (Lance table directories end so) as the path inside, so a branch stays that branch.
    List<String> segments = withoutLeadingParents(normalizedSegments(relative));
    for (int i = segments.size() - 1; i >= 0; i--) {
      if (segments.get(i).endsWith(LANCE_DIR_SUFFIX)) {
        return PathInTable.uncertain(String.join("/", segments.subList(i + 1, segments.size())));
      }
    }
    return PathInTable.uncertain("");
  }

  /**
   * A directory of this table that a base path names.
   *
   * @param path relative to the root ({@code ""} for the root)
   * @param certain false when the base path only counts as this table because it cannot be
   *     resolved (see {@link #locate})
   */
  public record PathInTable(String path, boolean certain) {
    static PathInTable certain(String path) {
      return new PathInTable(path, true);
    }

    static PathInTable uncertain(String path) {
      return new PathInTable(path, false);
    }
  }

  private static List<String> withoutLeadingParents(List<String> segments) {
    int start = 0;
    while (start < segments.size() && segments.get(start).equals("..")) {
      start++;
    }
    return segments.subList(start, segments.size());
  }

  /** The spellings a base path may mean: as written and, for a local path, percent-decoded. */
  private static List<String> spellings(String location) {
    List<String> spellings = new ArrayList<>(List.of(location));
    if (location.indexOf('%') >= 0 && !SCHEME.matcher(location).matches()) {
      try {
        spellings.add(URLDecoder.decode(location.replace("+", "%2B"), StandardCharsets.UTF_8));
      } catch (IllegalArgumentException notEncoded) {
        // A literal '%': the spelling as written is the only one.
      }
    }
    if (location.regionMatches(true, 0, "file:", 0, 5) && location.indexOf(' ') >= 0) {
      // A raw space is not legal in a URI, but writers put them there.
      spellings.add(location.replace(" ", "%20"));
    }
    return spellings;
  }

  private static Optional<String> canonicalOf(String location) {
    try {
      // A writer may have recorded credentials in a base path; where it points does not depend on
      // them, and a table we are given is refused for them, a base path is not.
      return Optional.of(TableLocation.of(redact(location)).canonical);
    } catch (IllegalArgumentException e) {
      // Includes InvalidPathException: not a path this platform can name.
      return Optional.empty();
    }
  }

  private Optional<String> below(String other) {
    if (other.equals(canonical)) {
      return Optional.of("");
    }
    String prefix = canonical.endsWith("/") ? canonical : canonical + "/";
    if (other.startsWith(prefix)) {
      return Optional.of(other.substring(prefix.length()));
    }
    return Optional.empty();
  }

  /** The path part of a {@code scheme://authority/path} or {@code scheme:/path} string. */
  private static String pathOf(String location) {
    int schemeEnd = location.indexOf(':');
    String rest = location.substring(schemeEnd + 1);
    if (rest.startsWith("//")) {
      int slash = rest.indexOf('/', 2);
      return slash < 0 ? "" : rest.substring(slash);
    }
    return rest;
  }

  private static List<String> segmentsOf(String path) {
    List<String> segments = new ArrayList<>();
    for (String segment : path.split("/")) {
      if (!segment.isEmpty()) {
        segments.add(segment);
      }
    }
    return segments;
  }

  /** Segments without {@code .}, with each {@code x/..} folded; leading {@code ..} stay. */
  private static List<String> normalizedSegments(String relative) {
    List<String> segments = new ArrayList<>();
    for (String segment : relative.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..") && !segments.isEmpty() && !segments.get(segments.size() - 1).equals("..")) {
        segments.remove(segments.size() - 1);
      } else {
        segments.add(segment);
      }
    }
    return segments;
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
