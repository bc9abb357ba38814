package dev.lancemaintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadsTest {

  @Test
  void aTaskRunsOnADaemonThreadCarryingItsNameAndLeavesItIdleForTheNext() {
    Thread first = DaemonThreads.join(DaemonThreads.beside("lance-test-first", () -> {
      assertThat(Thread.currentThread().getName()).isEqualTo("lance-test-first");
      assertThat(Thread.currentThread().isDaemon()).isTrue();
      return Thread.currentThread();
    }));
    assertThat(first.getName()).startsWith("lance-beside-");

    // The next task finds an idle thread (the first one, or another left idle by an earlier test)
    // instead of starting one: what a daily run's ten hand-offs save.
    Thread second = DaemonThreads.join(DaemonThreads.beside("lance-test-second", Thread::currentThread));
    assertThat(second.getName()).startsWith("lance-beside-");
  }

  @Test
  void aTaskThatWaitsForAnotherNeverWaitsForAThread() throws Exception {
    // The dead-run lookup waits for the start record, the lease's release for the work before it:
    // a bounded pool could leave the task waited for without a thread. Eight tasks that each wait
    // until all eight run end only if every one got a thread at once.
    int tasks = 8;
    CountDownLatch allRunning = new CountDownLatch(tasks);
    CompletableFuture<?>[] running = new CompletableFuture<?>[tasks];
    for (int i = 0; i < tasks; i++) {
      running[i] = DaemonThreads.beside("lance-test-wait", () -> {
        allRunning.countDown();
        try {
          return allRunning.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      });
    }
    for (CompletableFuture<?> task : running) {
      assertThat(task.get(20, TimeUnit.SECONDS)).isEqualTo(true);
    }
  }

  @Test
  void aTaskSeesItsCallersContextClassLoaderAsANewThreadWould() throws Exception {
    Thread caller = Thread.currentThread();
    ClassLoader before = caller.getContextClassLoader();
    try (URLClassLoader userCode = new URLClassLoader(new URL[0], before)) {
      caller.setContextClassLoader(userCode);
      assertThat(DaemonThreads.join(DaemonThreads.beside("lance-test-loader", () -> Thread.currentThread().getContextClassLoader())))
          .isSameAs(userCode);
    } finally {
      caller.setContextClassLoader(before);
    }
    // The idle thread does not keep the user code's loader for the next caller.
    assertThat(DaemonThreads.join(DaemonThreads.beside("lance-test-loader", () -> Thread.currentThread().getContextClassLoader())))
        .isSameAs(before);
  }

  @Test
  void aTasksFailureIsRethrownAsItWasThrown() {
    assertThatThrownBy(() -> DaemonThreads.join(DaemonThreads.beside("lance-test-failure", () -> {
      throw new IllegalArgumentException("refused");
    }))).isInstanceOf(IllegalArgumentException.class).hasMessage("refused");
  }
}
