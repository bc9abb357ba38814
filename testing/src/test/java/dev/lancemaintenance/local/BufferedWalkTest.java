package dev.lancemaintenance.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.StorageException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A walk into a bounded buffer: every name the walk gave comes back once, in the walk's order,
 * with its attributes, whatever the chunks it was held in; the walker holds no more than its bound;
 * a failure comes after the names before it; closing ends a walker that waits for room.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BufferedWalkTest {
  private static final int CHUNK = 64;

  @Test
  void everyNameComesBackOnceInTheWalksOrderWithItsAttributes() {
    List<FileEntry> walked = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      walked.add(FileEntry.unread("data/" + "0".repeat(i % 40) + Integer.toHexString(i * 7919) + ".lance"));
    }
    walked.add(new FileEntry("_indices/é-漢字/part-0.idx", 1_234_567_890_123L, 1_700_000_000_123L));
    walked.add(new FileEntry("_indices/é-漢字/part-0.idx", 0, -5, FileEntry.EntryType.LINK));
    walked.add(FileEntry.unread("data/" + "x".repeat(3 * CHUNK) + ".lance")); // longer than a chunk
    walked.add(FileEntry.unread("data/" + "x".repeat(3 * CHUNK) + ".lance")); // and the same name again
    walked.add(FileEntry.unread("d"));
    walked.add(new FileEntry("data/" + "y".repeat(70_000), Long.MAX_VALUE, Long.MIN_VALUE));

    for (long bound : List.of(1L, 2L * CHUNK, 1L << 20)) {
      try (BufferedWalk ahead = BufferedWalk.start("walk-ahead-test", walked::iterator, bound, CHUNK)) {
        assertThat(readAll(ahead.files())).as("bound %d", bound).containsExactlyElementsOf(walked);
      }
    }
  }

  @Test
  void aWalkerWithNoRoomWaitsUntilTheReaderTakesAChunk() throws InterruptedException {
    AtomicInteger given = new AtomicInteger();
    List<FileEntry> walked = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      walked.add(FileEntry.unread("data/" + i + ".lance"));
    }
    Iterator<FileEntry> counting = counted(walked.iterator(), given);
    // Two chunks of 64 bytes: a name of ~14 bytes takes ~17, so three or four a chunk.
    try (BufferedWalk ahead = BufferedWalk.start("walk-ahead-bounded", () -> counting, 2 * CHUNK, CHUNK)) {
      awaitWaiting("walk-ahead-bounded");
      assertThat(given.get()).as("names walked while nobody reads, two chunks and the name that did not fit")
          .isBetween(5, 2 * (CHUNK / 14) + 1);
      assertThat(readAll(ahead.files())).containsExactlyElementsOf(walked);
    }
  }

  @Test
  void aWalkThatFailsMidwayGivesTheNamesBeforeItAndThenItsFailure() {
    StorageException broken = new StorageException("list", "data", new IOException("the disk went away"));
    AtomicInteger given = new AtomicInteger();
    Iterator<FileEntry> failing = new Iterator<>() {
      @Override
      public boolean hasNext() {
        if (given.get() == 100) {
          throw broken;
        }
        return true;
      }

      @Override
      public FileEntry next() {
        return FileEntry.unread("data/" + given.getAndIncrement() + ".lance");
      }
    };
    try (BufferedWalk ahead = BufferedWalk.start("walk-ahead-failing", () -> failing, 3 * CHUNK, CHUNK)) {
      Iterator<FileEntry> files = ahead.files();
      List<FileEntry> read = new ArrayList<>();
      assertThatThrownBy(() -> files.forEachRemaining(read::add)).isSameAs(broken);
      assertThat(read).hasSize(100).last().isEqualTo(FileEntry.unread("data/99.lance"));
    }
  }

  @Test
  void aWalkThatCannotStartFailsItsReader() {
    StorageException broken = new StorageException("list", "data", new IOException("no such device"));
    try (BufferedWalk ahead = BufferedWalk.start("walk-ahead-unstarted", () -> {
      throw broken;
    }, CHUNK, CHUNK)) {
      assertThatThrownBy(() -> ahead.files().hasNext()).isSameAs(broken);
    }
  }

  @Test
  void closingEndsAWalkerThatWaitsForRoomAndClosesItsWalk() throws InterruptedException {
    AtomicInteger closes = new AtomicInteger();
    class EndlessWalk implements Iterator<FileEntry>, AutoCloseable {
      private int next;

      @Override
      public boolean hasNext() {
        return true;
      }

      @Override
      public FileEntry next() {
        return FileEntry.unread("data/" + next++ + ".lance");
      }

      @Override
      public void close() {
        closes.incrementAndGet();
      }
    }
    BufferedWalk ahead = BufferedWalk.start("walk-ahead-endless", EndlessWalk::new, CHUNK, CHUNK);
    Thread walker = awaitWaiting("walk-ahead-endless");
    ahead.close();
    assertThat(walker.isAlive()).as("the walker after close").isFalse();
    assertThat(closes).hasValue(1);
  }

  @Test
  void aReaderInterruptedWhileWaitingForTheWalkEndsAsAStoppedTask() throws InterruptedException {
    CountDownLatch never = new CountDownLatch(1);
    Iterator<FileEntry> stuck = new Iterator<>() {
      @Override
      public boolean hasNext() {
        try {
          never.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return false;
      }

      @Override
      public FileEntry next() {
        throw new AssertionError("never");
      }
    };
    try (BufferedWalk ahead = BufferedWalk.start("walk-ahead-stuck", () -> stuck, CHUNK, CHUNK)) {
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread reader = new Thread(() -> {
        try {
          ahead.files().hasNext();
        } catch (Throwable t) {
          thrown.set(t);
        }
      });
      reader.start();
      awaitState(reader, Thread.State.WAITING);
      reader.interrupt();
      reader.join();
      assertThat(thrown.get()).isInstanceOf(CancellationException.class);
    }
  }

  private static List<FileEntry> readAll(Iterator<FileEntry> files) {
    List<FileEntry> read = new ArrayList<>();
    files.forEachRemaining(read::add);
    return read;
  }

  private static Iterator<FileEntry> counted(Iterator<FileEntry> files, AtomicInteger given) {
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return files.hasNext();
      }

      @Override
      public FileEntry next() {
        given.incrementAndGet();
        return files.next();
      }
    };
  }

  /** The walker thread of that name, once it waits (for room: its walk never blocks). */
  private static Thread awaitWaiting(String name) throws InterruptedException {
    Thread walker = null;
    while (walker == null) {
      walker = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(name)).findFirst().orElse(null);
      Thread.sleep(1);
    }
    awaitState(walker, Thread.State.WAITING);
    return walker;
  }

  private static void awaitState(Thread thread, Thread.State state) throws InterruptedException {
    while (thread.getState() != state) {
      Thread.sleep(1);
    }
  }
}
