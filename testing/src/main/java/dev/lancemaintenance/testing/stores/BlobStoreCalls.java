package dev.lancemaintenance.testing.stores;

import dev.lancemaintenance.storage.TableLease;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jclouds.blobstore.BlobStore;

/**
 * Counts what s3proxy asks of its blob store, which is what S3 clients asked of the server: one
 * {@code removeBlob} per DeleteObject request, one {@code removeBlobs} per DeleteObjects (bulk)
 * request with the number of keys it carried. Seen from the server, so it proves what went over
 * the wire whatever the client claims. Requests for the table's maintenance lease (keys under
 * {@code _maintenance/}) are not counted: they are the lease's, not the cleanup's.
 */
public final class BlobStoreCalls {
  private final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
  private final List<Integer> bulkDeleteSizes = Collections.synchronizedList(new ArrayList<>());
  private final List<String> singleDeleteKeys = Collections.synchronizedList(new ArrayList<>());

  /** {@code store}, with every call counted here. */
  BlobStore wrap(BlobStore store) {
    return (BlobStore) Proxy.newProxyInstance(
        BlobStore.class.getClassLoader(),
        new Class<?>[] {BlobStore.class},
        (proxy, method, args) -> {
          record(method, args);
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private void record(Method method, Object[] args) {
    if (args != null && args.length > 1 && isLeaseKey(args[1])) {
      return;
    }
    calls.computeIfAbsent(method.getName(), name -> new AtomicLong()).incrementAndGet();
    if (method.getName().equals("removeBlobs") && args[1] instanceof Iterable<?> keys) {
      int size = 0;
      for (Object ignored : keys) {
        size++;
      }
      bulkDeleteSizes.add(size);
    }
    if (method.getName().equals("removeBlob")) {
      singleDeleteKeys.add(String.valueOf(args[1]));
    }
  }

  private static boolean isLeaseKey(Object arg) {
    if (arg instanceof String key) {
      return key.contains(TableLease.DIR + "/");
    }
    if (arg instanceof org.jclouds.blobstore.domain.Blob blob) {
      return isLeaseKey(blob.getMetadata().getName());
    }
    if (arg instanceof Iterable<?> keys) {
      for (Object key : keys) {
        if (!isLeaseKey(key)) {
          return false;
        }
      }
      return keys.iterator().hasNext();
    }
    return false;
  }

  /** Calls of the blob-store method {@code name} so far. */
  public long count(String name) {
    AtomicLong count = calls.get(name);
    return count == null ? 0 : count.get();
  }

  /** Keys of single-object delete requests so far, in arrival order. */
  public List<String> singleDeleteKeys() {
    synchronized (singleDeleteKeys) {
      return List.copyOf(singleDeleteKeys);
    }
  }

  /** Keys per bulk delete request so far, in arrival order. */
  public List<Integer> bulkDeleteSizes() {
    synchronized (bulkDeleteSizes) {
      return List.copyOf(bulkDeleteSizes);
    }
  }

  /** Forgets everything counted so far. */
  public void reset() {
    calls.clear();
    bulkDeleteSizes.clear();
    singleDeleteKeys.clear();
  }
}
