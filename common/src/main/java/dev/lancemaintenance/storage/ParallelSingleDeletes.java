package dev.lancemaintenance.storage;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One delete request per file, up to {@code concurrency} of them in flight: what a store without
 * bulk deletes (or a Hadoop 3.3 client, which has no {@code BulkDelete}) allows. On an object store
 * each delete is a round trip of tens of milliseconds, so a page deleted one file after another would
 * take seconds.
 *
 * <p>Each result is checked: {@code FileSystem.delete} returns {@code false} both for a file that
 * was already gone (deleted, as cleanup counts it) and for one the store kept (a failure), so a
 * {@code false} is a failure unless the file is gone. The threads are shared by every page of the
 * storage, so concurrent pages never have more than {@code concurrency} requests in flight; they
 * end when idle.
 */
final class ParallelSingleDeletes implements HadoopDeletes {
  private static final AtomicInteger POOLS = new AtomicInteger();

  private final FileSystem fs;
  private final int pageSize;
  private final ThreadPoolExecutor pool;

  ParallelSingleDeletes(FileSystem fs, int concurrency, int pageSize) {
    this.fs = fs;
    this.pageSize = pageSize;
    String name = "lance-maintenance-delete-" + POOLS.incrementAndGet() + "-";
    AtomicInteger threads = new AtomicInteger();
    this.pool = new ThreadPoolExecutor(concurrency, concurrency, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
        task -> {
          Thread thread = new Thread(task, name + threads.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        });
    pool.allowCoreThreadTimeOut(true);
  }

  @Override
  public DeleteRoute route() {
    return DeleteRoute.PARALLEL_SINGLE;
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public List<Map.Entry<Path, String>> delete(List<Path> paths) {
    List<Future<String>> outcomes = new ArrayList<>(paths.size());
    for (Path path : paths) {
      outcomes.add(pool.submit(() -> deleteOne(path)));
    }
    List<Map.Entry<Path, String>> failures = new ArrayList<>();
    boolean interrupted = false;
    for (int i = 0; i < paths.size(); i++) {
      String failure;
      try {
        failure = interrupted ? cancel(outcomes.get(i)) : outcomes.get(i).get();
      } catch (InterruptedException e) {
        interrupted = true;
        failure = cancel(outcomes.get(i));
      } catch (ExecutionException e) {
        failure = String.valueOf(e.getCause());
      }
      if (failure != null) {
        failures.add(Map.entry(paths.get(i), failure));
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return failures;
  }

  /** Why {@code path} is still there, or null when it is gone. */
  private String deleteOne(Path path) {
    try {
      if (!fs.delete(path, false) && fs.exists(path)) {
        return "the file system did not delete it";
      }
      return null;
    } catch (IOException | RuntimeException e) {
      return String.valueOf(e.getMessage());
    }
  }

  /** An interrupted caller does not wait: a delete not yet done counts as failed (and is retried later). */
  private static String cancel(Future<String> outcome) {
    if (outcome.isDone() && !outcome.isCancelled()) {
      try {
        return outcome.get();
      } catch (InterruptedException | ExecutionException e) {
        return String.valueOf(e);
      }
    }
    outcome.cancel(true);
    return "interrupted before the delete finished";
  }

  @Override
  public void close() {
    pool.shutdown();
  }
}
