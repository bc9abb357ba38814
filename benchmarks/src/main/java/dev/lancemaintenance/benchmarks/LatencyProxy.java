package dev.lancemaintenance.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy on 127.0.0.1 that adds a fixed delay to every HTTP request it forwards, so that every
 * client of an object store on the loopback (the SDK's native client and our s3a client alike) pays
 * the same round trip. The kernel here has no {@code netem}, and a storage wrapper can only slow
 * down our own engine.
 *
 * <p>A request is the first bytes a client sends on a connection, or the first it sends after the
 * server has answered: those bytes wait {@code delay} before they go on, so keep-alive connections
 * pay per request, not per connection, and parallel connections pay in parallel as they would
 * against a distant store. The body of a request that arrives in several reads pays once; bytes
 * are forwarded unchanged in both directions. HTTP/1.1 clients do not pipeline, which this relies
 * on.
 */
final class LatencyProxy implements AutoCloseable {
  private static final int BUFFER = 64 * 1024;
  /**
   * Set ({@code -Dbenchmark.traceRequests=true} in {@code BENCHMARK_JAVA_OPTS}) to print each
   * request's first line as it arrives ({@code request <time> <line>}), and when its answer's first
   * bytes come back ({@code answer <time> +<ms since the request arrived> <line>}): which round trips
   * a run makes, and which of them wait for one another (a request that arrives after another's
   * answer may be waiting for it; one that arrives before cannot be); and each connection a client
   * opens ({@code connect <time>}), as the proxy accepts it.
   */
  private static final boolean TRACE = Boolean.getBoolean("benchmark.traceRequests");

  private final ServerSocket listener;
  private final InetSocketAddress target;
  private final Duration delay;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicLong requests = new AtomicLong();
  private final Thread acceptor;

  private LatencyProxy(ServerSocket listener, InetSocketAddress target, Duration delay) {
    this.listener = listener;
    this.target = target;
    this.delay = delay;
    this.acceptor = daemon("latency-proxy-accept", this::acceptLoop);
  }

  /** Starts forwarding from a free port on 127.0.0.1 to {@code target} ({@code http://host:port}). */
  static LatencyProxy start(URI target, Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must be >= 0: " + delay);
    }
    try {
      ServerSocket listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
      LatencyProxy proxy =
          new LatencyProxy(listener, new InetSocketAddress(target.getHost(), target.getPort()), delay);
      proxy.acceptor.start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1 for a proxy to " + target, e);
    }
  }

  /** {@code http://127.0.0.1:<port>}: give this to clients instead of the target. */
  URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  Duration delay() {
    return delay;
  }

  /** Requests forwarded so far (each paid the delay once). */
  long requests() {
    return requests.get();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        if (TRACE) {
          System.out.printf("    connect %tT.%<tL%n", System.currentTimeMillis());
        }
        client.setTcpNoDelay(true);
        Socket server = new Socket();
        server.setTcpNoDelay(true);
        server.connect(target);
        open.add(client);
        open.add(server);
        // Set by the answer pump whenever the server sends, read by the request pump: the next
        // bytes from the client start a new request.
        AtomicBoolean awaitingRequest = new AtomicBoolean(true);
        LastRequest last = new LastRequest();
        daemon("latency-proxy-request", () -> pump(client, server, awaitingRequest, last, true)).start();
        daemon("latency-proxy-answer", () -> pump(server, client, awaitingRequest, last, false)).start();
      } catch (SocketException closed) {
        return;
      } catch (IOException e) {
        // One failed connection (the target refused it, say) must not stop the proxy; the client
        // sees its connection closed and retries or fails on its own.
      }
    }
  }

  /** Copies {@code from} to {@code to} until either side closes, then closes both. */
  private void pump(
      Socket from, Socket to, AtomicBoolean awaitingRequest, LastRequest last, boolean fromClient) {
    byte[] buffer = new byte[BUFFER];
    try (from; to) {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        if (fromClient) {
          if (awaitingRequest.getAndSet(false)) {
            requests.incrementAndGet();
            if (TRACE) {
              last.arrived(buffer, n);
            }
            pause();
          }
        } else if (!awaitingRequest.getAndSet(true) && TRACE) {
          last.answered();
        }
        out.write(buffer, 0, n);
        out.flush();
      }
    } catch (IOException | InterruptedException e) {
      // A closed or reset connection ends this pump; closing both sockets ends the other one.
    } finally {
      open.remove(from);
      open.remove(to);
    }
  }

  /**
   * The first line and arrival time of a connection's request in flight, for the trace: written by
   * the request pump, read by the answer pump once the answer's first bytes arrive (HTTP/1.1 does
   * not pipeline, so the answer is to that request). Only used with {@link #TRACE}.
   */
  private static final class LastRequest {
    private volatile String line = "";
    private volatile long arrivedNanos;

    void arrived(byte[] request, int length) {
      String head =
          new String(request, 0, Math.min(length, 300), java.nio.charset.StandardCharsets.ISO_8859_1);
      int end = head.indexOf('\r');
      line = end < 0 ? head : head.substring(0, end);
      arrivedNanos = System.nanoTime();
      System.out.printf("    request %tT.%<tL %s%n", System.currentTimeMillis(), line);
    }

    void answered() {
      long waited = (System.nanoTime() - arrivedNanos) / 1_000_000;
      System.out.printf("    answer  %tT.%<tL +%d ms %s%n", System.currentTimeMillis(), waited, line);
    }
  }

  private void pause() throws InterruptedException {
    if (!delay.isZero()) {
      Thread.sleep(delay.toMillis(), delay.toNanosPart() % 1_000_000);
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  @Override
  public void close() {
    try {
      listener.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    for (Socket socket : open) {
      try {
        socket.close();
      } catch (IOException e) {
        // Closing anyway.
      }
    }
  }
}
