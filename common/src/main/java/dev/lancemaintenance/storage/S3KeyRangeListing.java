package dev.lancemaintenance.storage;

import dev.lancemaintenance.DaemonThreads;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.s3a.Invoker;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import org.apache.hadoop.fs.s3a.S3AUtils;
import org.apache.hadoop.fs.store.audit.AuditSpan;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A recursive listing on s3a (hadoop-aws 3.4) that asks for the pages of one directory side by
 * side: s3a asks for page n+1 with page n's continuation token, so a directory of n pages is n
 * round trips in a row; here it is the first page, then the rest in key ranges listed at once,
 * each with {@code ListObjectsV2}'s {@code StartAfter} (which Hadoop's {@code FileSystem} does not
 * offer) and its own pages.
 *
 * <p><b>Why the union is exactly s3a's listing.</b> The first page is s3a's own first request
 * (the directory's key with a slash as the prefix, no delimiter), asking for at most {@link
 * #FIRST_PAGE_KEYS} keys rather than {@code fs.s3a.paging.maximum} (a store may answer any page
 * with fewer keys than asked, and its continuation token is not bound to the page's size): all keys
 * up to its last key {@code L}, in order. When the page is not the last, {@link
 * KeyRangeSplits} picks split points {@code L < s1 < ... < sk} (any, even none: they only balance
 * the ranges), and the ranges {@code (L, s1], (s1, s2], ..., (sk, +inf)} partition every key above
 * {@code L}: the first continues with the page's continuation token (the request s3a would send
 * next), each other starts after its lower bound, and each stops at its first key above its upper
 * bound (keys come in order, so none of its own follows). Every key is thus seen once, and each
 * goes through s3a's own filter ({@code Listing.AcceptFilesOnly}: no
 * directory marker {@code …/}, no {@code _$folder$}, not the directory itself) and mapping
 * ({@code S3AUtils.createFileStatus}: the listed size, the listed time, the key's qualified path),
 * so directory markers and subdirectories come out as s3a gives them: a subdirectory's files are
 * files of the walk, its marker nothing. A listing that finds no file asks for the path's status,
 * as s3a's {@code listFiles} does then: a file is listed as itself, a missing path raises {@code
 * FileNotFoundException}. The split points are ASCII, so S3's order of keys (by UTF-8 bytes) and
 * {@link String#compareTo} agree on which side of one a key falls ({@link KeyRangeSplits}).
 *
 * <p><b>Pages as they come, not range after range.</b> The caller gets the first page, then each
 * page of any range as soon as it is listed: a range's own pages in its order, the ranges' pages
 * interleaved. Read range after range, a range could list only {@link #PAGES_AHEAD} pages ahead of
 * the caller, so a directory of many pages a range (a {@code data/} of a million files: a thousand
 * pages, 125 a range) was listed almost a page at a time again, each range waiting for the caller
 * to reach it. Nothing that lists needs the store's order ({@link TableStorage#listFiles}: "Order is
 * the store's", and a local directory has none); what is held stays bounded as before: at most
 * {@link #PAGES_AHEAD} pages a range waiting in one queue, and one page in each range's hand.
 *
 * <p>A directory of one page sends the one request it sent before. Not used where s3a changes
 * what a listing shows or how it asks: client-side encryption (the listed size is not the file's),
 * and list version 1 ({@code fs.s3a.list.version}, for stores without {@code ListObjectsV2}).
 * Requests go through s3a's own client (its credentials, endpoint, path style, retries and
 * interceptors; {@code S3AInternals.getAmazonS3Client}, public in 3.4 though marked for testing and
 * diagnostics), built by s3a's request factory, retried by s3a's invoker, inside an s3a audit span.
 */
final class S3KeyRangeListing implements RecursiveListing {
  private static final String LIST_VERSION = "fs.s3a.list.version";
  private static final String PAGING_MAXIMUM = "fs.s3a.paging.maximum";
  private static final int DEFAULT_PAGING_MAXIMUM = 5000;
  /**
   * Keys the first page asks for at most. Every range waits for the first page, and a page of 1,000
   * keys (a store's most) is answered and parsed in about twice a small request's time (76 against
   * 33 ms at +20 ms a request, docs/benchmarks.md, "The object store's daily run: the listing beside the mark"); ranges cut
   * from a smaller first page are smaller too, so a directory of a few thousand keys is listed in
   * two short round trips instead of two long ones. Only the first page: a range asks for full
   * pages. A directory of at most this many keys is still one request; one of up to a full page
   * more (251 to 1,000 keys on S3), one request before, is now two shorter ones in a row (at the
   * times above, about as long together as the one page was) and a request more on the bill.
   */
  static final int FIRST_PAGE_KEYS = 250;
  /** Keys S3 answers a {@code ListObjectsV2} with at most, whatever it was asked for. */
  private static final int S3_MAX_KEYS = 1000;
  /**
   * Pages listed ahead of the caller, per range (all ranges share one queue of this many pages a
   * range): a directory of millions streams, a few pages held.
   */
  private static final int PAGES_AHEAD = 2;
  private static final String FOLDER_SUFFIX = "_$folder$";

  private final S3AFileSystem fs;
  private final S3Client client;
  private final Invoker invoker;
  private final int maxKeys;
  private final ExecutorService rangeThreads;

  private S3KeyRangeListing(S3AFileSystem fs, S3Client client, int maxKeys) {
    this.fs = fs;
    this.client = client;
    this.invoker = fs.createStoreContext().getInvoker();
    this.maxKeys = maxKeys;
    this.rangeThreads = Executors.newCachedThreadPool(DaemonThreads.named("lance-s3-key-range"));
  }

  /** The key-range listing of {@code fs}; null where s3a lists otherwise (see the class comment). */
  public static RecursiveListing open(FileSystem fs) {
    if (!(fs instanceof S3AFileSystem s3a) || s3a.getConf().getInt(LIST_VERSION, 2) != 2 || s3a.isCSEEnabled()) {
      return null;
    }
    S3Client client = s3a.getS3AInternals().getAmazonS3Client("listing a directory in key ranges");
    return new S3KeyRangeListing(s3a, client, s3a.getConf().getInt(PAGING_MAXIMUM, DEFAULT_PAGING_MAXIMUM));
  }

  @Override
  public RemoteIterator<FileStatus> listFiles(Path dir) throws IOException {
    Path qualified = fs.makeQualified(dir);
    String prefix = S3AUtils.maybeAddTrailingSlash(fs.pathToKey(qualified));
    AuditSpan span = fs.createSpan("op_list_files", qualified.toString(), null);
    ListObjectsV2Response first;
    try {
      first = list(request(prefix, Math.min(maxKeys, FIRST_PAGE_KEYS)).build(), prefix);
    } finally {
      span.deactivate();
    }
    List<Range> ranges = new ArrayList<>();
    BlockingQueue<Page> pages = null;
    if (truncated(first)) {
      List<String> names = new ArrayList<>(first.contents().size());
      for (S3Object object : first.contents()) {
        names.add(object.key().substring(prefix.length()));
      }
      List<String> splits = KeyRangeSplits.after(names, Math.min(maxKeys, S3_MAX_KEYS));
      pages = new ArrayBlockingQueue<>(PAGES_AHEAD * (splits.size() + 1));
      String lower = null;
      for (int i = 0; i <= splits.size(); i++) {
        String upper = i < splits.size() ? prefix + splits.get(i) : null;
        ranges.add(i == 0
            ? new Range(qualified, prefix, first.nextContinuationToken(), null, upper, span, pages)
            : new Range(qualified, prefix, null, lower, upper, span, pages));
        lower = upper;
      }
      for (Range range : ranges) {
        try {
          rangeThreads.execute(range);
        } catch (RejectedExecutionException closed) {
          throw new InterruptedIOException("the storage was closed while listing " + qualified);
        }
      }
    }
    return new Files(qualified, filesOf(first.contents(), qualified), ranges.size(), pages);
  }

  private ListObjectsV2Request.Builder request(String prefix, int keys) {
    return fs.getRequestFactory().newListObjectsV2RequestBuilder(prefix, null, keys);
  }

  /**
   * One page, retried by s3a's own invoker as s3a's listing retries its pages: a store that answers
   * {@code 503 Slow Down} is backed off from under s3a's retry policy ({@code fs.s3a.retry.*}), not
   * failed at the first refusal; what still fails is translated as s3a translates it.
   */
  private ListObjectsV2Response list(ListObjectsV2Request request, String prefix) throws IOException {
    return invoker.retry("list", prefix, true, () -> client.listObjectsV2(request));
  }

  private static boolean truncated(ListObjectsV2Response page) {
    return Boolean.TRUE.equals(page.isTruncated());
  }

  /**
   * The files among {@code objects}, as s3a's recursive {@code listFiles} accepts and maps them. A
   * key in Hadoop's normal form ({@link ListedKey#plain}) needs no {@code Path} to be accepted or
   * named, so none is made for it unless asked ({@link ListedKey}): two URI parses per key were
   * most of our client's own CPU per listed key after the SDK's XML reader (docs/benchmarks.md,
   * "Stop 37"). The block size s3a gives every file is read once a page instead of once a key.
   */
  private List<FileStatus> filesOf(List<S3Object> objects, Path dir) {
    List<FileStatus> files = new ArrayList<>(objects.size());
    long blockSize = fs.getDefaultBlockSize(dir);
    String dirPath = dir.toUri().getPath();
    for (S3Object object : objects) {
      String key = object.key();
      // Listing.AcceptFilesOnly: not the directory itself, no _$folder$, no directory marker.
      if (key.endsWith(FOLDER_SUFFIX) || S3AUtils.objectRepresentsDirectory(key)) {
        continue;
      }
      if (ListedKey.plain(key)) {
        if (!dirPath.equals("/" + key)) {
          // Listing.FileStatusListingIterator through S3AUtils.createFileStatus: the listed size
          // (the object's own without client-side encryption) and time, the key's qualified path.
          files.add(new ListedKey(fs, key, object.size(), object.lastModified().toEpochMilli(), blockSize, fs.getUsername()));
        }
        continue;
      }
      Path path = fs.keyToQualifiedPath(key);
      if (!path.equals(dir)) {
        files.add(S3AUtils.createFileStatus(path, object, blockSize, fs.getUsername(), object.eTag(), null, object.size()));
      }
    }
    return files;
  }

  /**
   * A listed file whose qualified path ({@code keyToQualifiedPath}, what s3a's status carries) is
   * made only when asked: the table's storage names a listed file from its key alone ({@link
   * RecursiveListing.KeyNamed}). Only for a key in Hadoop's normal form ({@link #plain}), whose
   * path's {@code toUri().getPath()} is exactly {@code "/" + key}; any other key is listed as s3a
   * lists it, with its {@code Path} made at once.
   */
  static final class ListedKey extends FileStatus implements RecursiveListing.KeyNamed {
    private final transient S3AFileSystem fs;
    private final String key;
    private Path path;

    ListedKey(S3AFileSystem fs, String key, long size, long modificationTime, long blockSize, String owner) {
      super(size, false, 1, blockSize, modificationTime, 0, null, owner, owner, null, null);
      this.fs = fs;
      this.key = key;
    }

    /**
     * Whether {@code key} is its own path: made of letters, digits, {@code - _ .} and single
     * slashes, no {@code .} or {@code ..} segment, not ending in a slash. {@code new Path("/" + key)}
     * then changes nothing (Path drops repeated and trailing slashes and resolves dot segments;
     * its URI decodes a {@code %} escape, so {@code %} is out too), and every Lance name is such a
     * key.
     */
    static boolean plain(String key) {
      if (key.isEmpty() || key.endsWith("/")) {
        return false;
      }
      int segmentStart = 0;
      for (int i = 0; i <= key.length(); i++) {
        char c = i < key.length() ? key.charAt(i) : '/';
        if (c == '/') {
          int length = i - segmentStart;
          if (length == 0 || (length == 1 && key.charAt(segmentStart) == '.')
              || (length == 2 && key.startsWith("..", segmentStart))) {
            return false;
          }
          segmentStart = i + 1;
        } else if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.')) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String key() {
      return key;
    }

    @Override
    public synchronized Path getPath() {
      if (path == null) {
        path = fs.keyToQualifiedPath(key);
      }
      return path;
    }
  }

  @Override
  public void close() {
    // A range still listing for a caller that stopped reading waits on its full queue: free it.
    rangeThreads.shutdownNow();
  }

  /** One page's files of a range, whether it is the range's last, or why the range failed (then its last). */
  private record Page(List<FileStatus> files, boolean last, Throwable failure) {}

  /**
   * The keys of {@code (lower, upper]} under the prefix ({@code upper} null: unbounded), listed
   * ahead of the caller, a page at a time into the queue its directory's ranges share. The first
   * range continues from the first page's token instead of a lower bound.
   */
  private final class Range implements Runnable {
    private final String prefix;
    private final String continuation;
    private final String lower;
    private final String upper;
    private final AuditSpan span;
    private final BlockingQueue<Page> pages;
    private final Path dir;

    Range(Path dir, String prefix, String continuation, String lower, String upper, AuditSpan span,
        BlockingQueue<Page> pages) {
      this.dir = dir;
      this.pages = pages;
      this.prefix = prefix;
      this.continuation = continuation;
      this.lower = lower;
      this.upper = upper;
      this.span = span;
    }

    @Override
    public void run() {
      span.activate();
      try {
        String token = continuation;
        while (true) {
          ListObjectsV2Request.Builder request = request(prefix, maxKeys);
          if (token != null) {
            request.continuationToken(token);
          } else {
            request.startAfter(lower);
          }
          ListObjectsV2Response page = list(request.build(), prefix);
          List<S3Object> inRange = page.contents();
          boolean beyond = false;
          if (upper != null) {
            for (int i = 0; i < inRange.size() && !beyond; i++) {
              if (inRange.get(i).key().compareTo(upper) > 0) {
                inRange = inRange.subList(0, i);
                beyond = true;
              }
            }
          }
          boolean last = beyond || !truncated(page);
          pages.put(new Page(filesOf(inRange, dir), last, null));
          if (last) {
            return;
          }
          token = page.nextContinuationToken();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (IOException | RuntimeException | Error e) {
        try {
          // Put, not offer: with the queue full of pages the caller has yet to take, an offered
          // failure would be lost and the caller would wait for a page that never comes (the
          // caller takes every page until each range gave its last).
          pages.put(new Page(List.of(), true, e));
        } catch (InterruptedException closed) {
          Thread.currentThread().interrupt();
        }
      } finally {
        span.deactivate();
      }
    }
  }

  /**
   * The first page's files, then the ranges' pages as they are listed; s3a's status probe when
   * there are none.
   */
  private final class Files implements RemoteIterator<FileStatus> {
    private final Path dir;
    /** The queue the ranges put their pages in; null without ranges. */
    private final BlockingQueue<Page> pages;
    private Iterator<FileStatus> page;
    /** Ranges that have not given their last page yet. */
    private int rangesOpen;
    private boolean anyFile;
    private boolean probed;

    Files(Path dir, List<FileStatus> first, int ranges, BlockingQueue<Page> pages) {
      this.dir = dir;
      this.page = first.iterator();
      this.rangesOpen = ranges;
      this.pages = pages;
      this.anyFile = !first.isEmpty();
    }

    @Override
    public boolean hasNext() throws IOException {
      while (!page.hasNext()) {
        if (rangesOpen > 0) {
          Page next = take();
          if (next.failure() != null) {
            throw rethrown(next.failure());
          }
          if (next.last()) {
            rangesOpen--;
          }
          anyFile |= !next.files().isEmpty();
          page = next.files().iterator();
          continue;
        }
        if (anyFile || probed) {
          return false;
        }
        // S3AFileSystem.innerListFiles: a listing without files is a file, an empty directory
        // or nothing (FileNotFoundException), as the path's status says.
        probed = true;
        FileStatus status = fs.getFileStatus(dir);
        page = status.isFile() ? List.of(status).iterator() : Collections.emptyIterator();
      }
      return true;
    }

    @Override
    public FileStatus next() throws IOException {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return page.next();
    }

    /** The next page any of the ranges listed. */
    private Page take() throws IOException {
      try {
        return pages.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while listing " + dir);
      }
    }

    /** A range's failure, thrown again here as it was thrown there. */
    private IOException rethrown(Throwable failure) {
      if (failure instanceof IOException io) {
        return io;
      }
      if (failure instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw (Error) failure;
    }
  }
}
