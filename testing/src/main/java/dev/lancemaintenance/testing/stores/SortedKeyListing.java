package dev.lancemaintenance.testing.stores;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.locks.ReentrantLock;
import org.jclouds.blobstore.BlobStore;
import org.jclouds.blobstore.domain.Blob;
import org.jclouds.blobstore.domain.MultipartUpload;
import org.jclouds.blobstore.domain.MutableBlobMetadata;
import org.jclouds.blobstore.domain.MutableStorageMetadata;
import org.jclouds.blobstore.domain.PageSet;
import org.jclouds.blobstore.domain.StorageMetadata;
import org.jclouds.blobstore.domain.StorageType;
import org.jclouds.blobstore.domain.internal.MutableStorageMetadataImpl;
import org.jclouds.blobstore.domain.internal.PageSetImpl;
import org.jclouds.blobstore.options.ListContainerOptions;

/**
 * A blob store whose {@code list} answers from a sorted index of its keys, in time proportional to
 * the page. jclouds' in-memory store (2.7.0, {@code LocalBlobStore.list}) reads the metadata of every
 * blob under the prefix into a sorted set on every request, so listing a directory of N keys in
 * pages of 1,000 costs N²/1,000 there: on a table of a million files the listing would time s3proxy,
 * not the client. For benchmarks ({@link S3ProxyServer#startIndexed()}); the tests' server keeps the
 * plain store.
 *
 * <p>The answers are the plain store's, its quirks included (SortedKeyListingIT compares them page by
 * page): keys in {@code [prefix, prefix + U+FFFF)}; with a delimiter (or without {@code recursive},
 * then {@code /}), a key whose rest after the prefix holds it folds into the common prefix up to its
 * first occurrence, as a {@code RELATIVE_PATH} entry, unless that occurrence ends the key (the key is
 * listed itself, and hides the common prefix of the same name) or the common prefix is literally
 * {@code NO_PREFIX}; the marker excludes every entry up to it; a page holds {@code maxResults}
 * (1,000) entries and names its last as the next marker when more follow. Options the plain store
 * treats otherwise ({@code inDirectory}, a negative page size, a missing container) go to it.
 *
 * <p>The index holds keys only: every listed blob's metadata is read from the store when the page is
 * built, as the plain listing reads it, so a key the index still holds after its blob went costs a
 * lookup, never a wrong answer; a missing key would, so every call that may add one is followed by a
 * check. A call that names its key ({@code putBlob}, {@code removeBlob(s)}, {@code copyBlob}'s target)
 * reconciles that key with the store under a lock of its own (a put's check cannot be overtaken by a
 * remove's); any other call that is not known to leave the keys alone (multipart uploads, whose
 * parts the store keeps under keys of its own; clearing or deleting a container) has the container's
 * keys read again from the store before its next listing. Writes that bypass this object are not
 * seen: write through it.
 */
final class SortedKeyListing implements InvocationHandler {
  /** Calls that change no key of any container. */
  private static final Set<String> KEYS_UNCHANGED = Set.of(
      "getContext", "blobBuilder", "containerExists", "directoryExists", "blobExists", "getBlob",
      "blobMetadata", "getBlobAccess", "setBlobAccess", "getContainerAccess", "setContainerAccess",
      "listAssignableLocations", "countBlobs", "listMultipartUploads", "listMultipartUpload",
      "getMinimumMultipartPartSize", "getMaximumMultipartPartSize", "getMaximumNumberOfParts",
      "downloadBlob", "streamBlob", "toString", "hashCode", "equals");
  /** The plain store's common prefix that its own listing drops (its "no common prefix" marker). */
  private static final String NO_PREFIX = "NO_PREFIX";
  private static final String SEPARATOR = "/";
  private static final int DEFAULT_PAGE = 1000;

  private final BlobStore store;
  private final Map<String, NavigableSet<String>> keys = new ConcurrentHashMap<>();
  /** Containers whose keys must be read again from the store before their next listing. */
  private final Set<String> stale = ConcurrentHashMap.newKeySet();
  private final ReentrantLock[] keyLocks = new ReentrantLock[64];

  private SortedKeyListing(BlobStore store) {
    this.store = store;
    for (int i = 0; i < keyLocks.length; i++) {
      keyLocks[i] = new ReentrantLock();
    }
  }

  /** {@code store}, listed from a sorted index of its keys; write through the result. */
  static BlobStore over(BlobStore store) {
    return (BlobStore) Proxy.newProxyInstance(BlobStore.class.getClassLoader(), new Class<?>[] {BlobStore.class},
        new SortedKeyListing(store));
  }

  @Override
  @SuppressWarnings("unchecked")
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    if (name.equals("list") && args != null && args.length == 2) {
      return list((String) args[0], (ListContainerOptions) args[1]);
    }
    if (name.equals("list") && args != null && args.length == 1) {
      // The plain store's list(container) is its list(container, NONE).
      return list((String) args[0], ListContainerOptions.NONE);
    }
    Object result = forward(method, args);
    switch (name) {
      case "list" -> { }
      case "putBlob" -> reconcile((String) args[0], ((Blob) args[1]).getMetadata().getName());
      case "removeBlob" -> reconcile((String) args[0], (String) args[1]);
      case "removeBlobs" -> {
        for (String key : (Iterable<String>) args[1]) {
          reconcile((String) args[0], key);
        }
      }
      case "copyBlob" -> reconcile((String) args[2], (String) args[3]);
      default -> {
        if (!KEYS_UNCHANGED.contains(name)) {
          markStale(args);
        }
      }
    }
    return result;
  }

  private Object forward(Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(store, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * Marks the container a call names stale: its first string argument (every {@code BlobStore} call
   * names its container first), or its multipart upload's; all containers when it names none.
   */
  private void markStale(Object[] args) {
    for (Object arg : args == null ? new Object[0] : args) {
      if (arg instanceof String container) {
        markStale(container);
        return;
      }
      if (arg instanceof MultipartUpload upload) {
        markStale(upload.containerName());
        return;
      }
    }
    keys.keySet().forEach(this::markStale);
  }

  private void markStale(String container) {
    stale.add(container);
    if (!store.containerExists(container)) {
      // A deleted container's keys would be read again only if it came back: free them now.
      keys.remove(container);
    }
  }

  /** Makes the index hold {@code key} exactly when the store does. */
  private void reconcile(String container, String key) {
    ReentrantLock lock = keyLocks[Math.floorMod(container.hashCode() * 31 + key.hashCode(), keyLocks.length)];
    lock.lock();
    try {
      NavigableSet<String> index = keys.computeIfAbsent(container, c -> new ConcurrentSkipListSet<>());
      if (store.containerExists(container) && store.blobExists(container, key)) {
        index.add(key);
      } else {
        index.remove(key);
      }
    } finally {
      lock.unlock();
    }
  }

  /** The container's keys, read from the store first if never read or marked stale. */
  private NavigableSet<String> keysOf(String container) {
    NavigableSet<String> index = keys.get(container);
    if (index != null && !stale.contains(container)) {
      return index;
    }
    synchronized (this) {
      // Registered before it is filled: a write meanwhile reconciles its key into this set.
      NavigableSet<String> filled = keys.computeIfAbsent(container, c -> new ConcurrentSkipListSet<>());
      if (stale.remove(container) || index == null) {
        // Once per container and per unknown write: the plain store's own (slow) complete listing.
        List<String> listed = new ArrayList<>();
        for (StorageMetadata entry : store.list(container, ListContainerOptions.Builder.recursive().maxResults(Integer.MAX_VALUE))) {
          listed.add(entry.getName());
        }
        filled.addAll(listed);
        for (String key : List.copyOf(filled)) {
          reconcile(container, key);
        }
      }
      return filled;
    }
  }

  private PageSet<? extends StorageMetadata> list(String container, ListContainerOptions options) {
    Integer pageSize = options.getMaxResults();
    boolean sameAsPlain = options.getDir() == null && (pageSize == null || pageSize >= 0)
        && !(options.isRecursive() && options.getDelimiter() != null) && store.containerExists(container);
    if (!sameAsPlain) {
      return store.list(container, options);
    }
    int page = pageSize == null ? DEFAULT_PAGE : pageSize;
    String prefix = options.getPrefix();
    String delimiter = options.getDelimiter() != null ? options.getDelimiter() : options.isRecursive() ? null : SEPARATOR;
    Page built = new Page(container, prefix == null ? "" : prefix, delimiter == null || delimiter.isEmpty() ? null : delimiter,
        options.getMarker(), options.isDetailed(), page);
    built.fill(inRange(keysOf(container), prefix, options.getMarker()));
    return built.result();
  }

  /**
   * The keys the plain store reads for {@code prefix} (none: all; else {@code [prefix, prefix +
   * U+FFFF)}), after {@code marker}. A view bounded on both sides refuses a bound outside itself, so
   * the marker is clamped here.
   */
  private static NavigableSet<String> inRange(NavigableSet<String> all, String prefix, String marker) {
    if (prefix == null) {
      return marker == null ? all : all.tailSet(marker, false);
    }
    String end = prefix + Character.MAX_VALUE;
    if (marker != null && marker.compareTo(end) >= 0) {
      return new TreeSet<>();
    }
    boolean afterMarker = marker != null && marker.compareTo(prefix) >= 0;
    return all.subSet(afterMarker ? marker : prefix, !afterMarker, end, false);
  }

  /** One page: entries in name order, one more than fits, to know whether more follow. */
  private final class Page {
    private final String container;
    private final String prefix;
    private final String delimiter;
    private final String marker;
    private final boolean detailed;
    private final int size;
    private final List<StorageMetadata> entries = new ArrayList<>();

    Page(String container, String prefix, String delimiter, String marker, boolean detailed, int size) {
      this.container = container;
      this.prefix = prefix;
      this.delimiter = delimiter;
      this.marker = marker;
      this.detailed = detailed;
      this.size = size;
    }

    void fill(NavigableSet<String> range) {
      String key = range.isEmpty() ? null : range.first();
      while (key != null && entries.size() <= size) {
        String rest = key.substring(prefix.length());
        int at = delimiter == null ? -1 : rest.indexOf(delimiter);
        if (at < 0 || at == rest.length() - delimiter.length()) {
          addBlob(key);
          key = range.higher(key);
          continue;
        }
        String common = rest.substring(0, at);
        String commonName = prefix + common + delimiter;
        if (!common.equals(NO_PREFIX) && (marker == null || commonName.compareTo(marker) > 0) && !isLast(commonName)) {
          MutableStorageMetadata folded = new MutableStorageMetadataImpl();
          folded.setType(StorageType.RELATIVE_PATH);
          folded.setName(commonName);
          entries.add(folded);
        }
        key = pastEveryKeyUnder(range, commonName, key);
      }
    }

    /** The plain store lists a key whose delimiter ends it itself, and drops the common prefix it names. */
    private boolean isLast(String name) {
      return !entries.isEmpty() && entries.get(entries.size() - 1).getName().equals(name);
    }

    private void addBlob(String key) {
      MutableBlobMetadata metadata = (MutableBlobMetadata) store.blobMetadata(container, key);
      if (metadata == null) {
        // Gone since the index was read, as the plain store skips a key whose blob it cannot load.
        return;
      }
      if (!detailed) {
        metadata.getUserMetadata().clear();
      }
      entries.add(metadata);
    }

    /** The first key of {@code range} after {@code current} that does not start with {@code name}. */
    private String pastEveryKeyUnder(NavigableSet<String> range, String name, String current) {
      char last = name.charAt(name.length() - 1);
      if (last == Character.MAX_VALUE) {
        String next = range.higher(current);
        while (next != null && next.startsWith(name)) {
          next = range.higher(next);
        }
        return next;
      }
      // Every key that starts with name sorts before name with its last char raised by one.
      return range.ceiling(name.substring(0, name.length() - 1) + (char) (last + 1));
    }

    PageSet<StorageMetadata> result() {
      if (size == 0) {
        return new PageSetImpl<>(List.of(), null);
      }
      if (entries.size() > size) {
        List<StorageMetadata> shown = entries.subList(0, size);
        return new PageSetImpl<>(shown, shown.get(size - 1).getName());
      }
      return new PageSetImpl<>(entries, null);
    }
  }
}
