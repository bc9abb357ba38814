package dev.lancemaintenance.testing.stores;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP proxy on 127.0.0.1 in front of an S3-compatible server that answers every
 * {@code every}-th request itself with {@code 503 Slow Down}, the error S3 sends when a prefix is
 * asked too much, and forwards the others unchanged. Which request is refused depends only on its
 * arrival number, so a run sees the same number of refusals whatever it asks, and a client that
 * retries gets through on the next attempt.
 *
 * <p>One request per connection: the proxy forwards a request on a fresh connection with {@code
 * Connection: close} and relays the answer until the server closes it, so it never has to find
 * where a response ends. It drops {@code Expect: 100-continue} and answers the {@code 100} itself.
 * Neither header is part of an AWS V4 signature, so signed requests stay valid.
 */
public final class ThrottlingProxy implements AutoCloseable {
  private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};
  private static final Set<String> DROPPED_HEADERS = Set.of("connection", "expect", "keep-alive");
  private static final String SLOW_DOWN_BODY =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SlowDown</Code>"
          + "<Message>Please reduce your request rate.</Message><RequestId>throttled</RequestId></Error>";

  private final ServerSocket listener;
  private final URI target;
  private final int every;
  private final AtomicLong requests = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  /** Requests after this arrival number are all refused: a store that stopped answering. */
  private final AtomicLong refusingAfter = new AtomicLong(Long.MAX_VALUE);
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  /** Requests whose request line contains this wait for {@link #held} before they go on; null: none. */
  private volatile String holding;
  private volatile CountDownLatch held = new CountDownLatch(0);

  private ThrottlingProxy(ServerSocket listener, URI target, int every) {
    this.listener = listener;
    this.target = target;
    this.every = every;
  }

  /** Starts a proxy to {@code target} ({@code http://host:port}) that refuses every {@code every}-th request. */
  public static ThrottlingProxy start(URI target, int every) {
    if (every < 2) {
      throw new IllegalArgumentException("every must be >= 2, or no request would get through: " + every);
    }
    try {
      ThrottlingProxy proxy =
          new ThrottlingProxy(new ServerSocket(0, 200, InetAddress.getLoopbackAddress()), target, every);
      daemon("throttling-proxy-accept", proxy::acceptLoop).start();
      return proxy;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open a port on 127.0.0.1", e);
    }
  }

  /** {@code http://127.0.0.1:<port>}, to give clients as their endpoint. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + listener.getLocalPort());
  }

  /** Requests seen so far, refused or not. */
  public long requests() {
    return requests.get();
  }

  /**
   * Refuses every request after the {@code arrivals}-th from now on, retries included: a store that
   * stops answering in the middle of a client's work, at a request the test can name.
   */
  public void refuseEveryRequestAfter(long arrivals) {
    refusingAfter.set(arrivals);
  }

  /**
   * Holds every request whose request line (method, path and query, e.g. {@code start-after=…} of
   * a listing) contains {@code fragment} until {@link #releaseHeld()}: a request the store is slow
   * to answer, named by the test. The others go on as before.
   */
  public void holdRequestsContaining(String fragment) {
    held = new CountDownLatch(1);
    holding = fragment;
  }

  /** Lets the held requests, and every later one, go on. */
  public void releaseHeld() {
    holding = null;
    held.countDown();
  }

  /** Requests answered with 503 Slow Down so far. */
  public long refused() {
    return refused.get();
  }

  private void acceptLoop() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        open.add(client);
        daemon("throttling-proxy-conn", () -> serve(client)).start();
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void serve(Socket client) {
    try (client) {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      byte[] head = readHead(in);
      if (head == null) {
        return;
      }
      Request request = Request.parse(head);
      String hold = holding;
      if (hold != null && request.requestLine().contains(hold)) {
        held.await();
      }
      long arrival = requests.incrementAndGet();
      if (arrival % every == 0 || arrival > refusingAfter.get()) {
        refused.incrementAndGet();
        // Unread body bytes are dropped with the connection, as a real server may do.
        slowDown(out);
        return;
      }
      if (request.expectsContinue()) {
        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      }
      byte[] body = request.readBody(in);
      try (Socket server = new Socket(target.getHost(), target.getPort())) {
        open.add(server);
        OutputStream toServer = server.getOutputStream();
        toServer.write(request.forwardedHead());
        toServer.write(body);
        toServer.flush();
        server.getInputStream().transferTo(out);
        out.flush();
      } finally {
        open.removeIf(Socket::isClosed);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // A client or server that went away mid-request: the client sees a broken connection and
      // retries, which is what the test is about.
    } finally {
      open.remove(client);
    }
  }

  private static void slowDown(OutputStream out) throws IOException {
    byte[] body = SLOW_DOWN_BODY.getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 503 Slow Down\r\nContent-Type: application/xml\r\nContent-Length: "
        + body.length + "\r\nConnection: close\r\n\r\n";
    out.write(head.getBytes(StandardCharsets.US_ASCII));
    out.write(body);
    out.flush();
  }

  /** The bytes up to and including the blank line, or null when the client closed first. */
  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = b == HEAD_END[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
      if (matched == HEAD_END.length) {
        return head.toByteArray();
      }
    }
    return null;
  }

  /** A request line and its headers, as far as forwarding needs them. */
  private record Request(String requestLine, List<String> headers) {
    static Request parse(byte[] head) {
      String[] lines = new String(head, StandardCharsets.ISO_8859_1).split("\r\n");
      List<String> headers = new ArrayList<>();
      for (int i = 1; i < lines.length; i++) {
        if (!lines[i].isEmpty()) {
          headers.add(lines[i]);
        }
      }
      return new Request(lines[0], headers);
    }

    String header(String name) {
      for (String line : headers) {
        int colon = line.indexOf(':');
        if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
          return line.substring(colon + 1).trim();
        }
      }
      return null;
    }

    boolean expectsContinue() {
      return "100-continue".equalsIgnoreCase(header("Expect"));
    }

    byte[] readBody(InputStream in) throws IOException {
      String encoding = header("Transfer-Encoding");
      if (encoding != null && encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
        return readChunked(in);
      }
      String length = header("Content-Length");
      return length == null ? new byte[0] : in.readNBytes(Integer.parseInt(length));
    }

    /** The chunked body as it was sent, chunk headers and trailer included. */
    private static byte[] readChunked(InputStream in) throws IOException {
      ByteArrayOutputStream raw = new ByteArrayOutputStream();
      while (true) {
        String sizeLine = readLine(in, raw);
        int size = Integer.parseInt(sizeLine.split(";", 2)[0].trim(), 16);
        if (size == 0) {
          String trailer;
          do {
            trailer = readLine(in, raw);
          } while (!trailer.isEmpty());
          return raw.toByteArray();
        }
        raw.write(in.readNBytes(size));
        readLine(in, raw); // the CRLF after the chunk
      }
    }

    private static String readLine(InputStream in, ByteArrayOutputStream copy) throws IOException {
      StringBuilder line = new StringBuilder();
      int b;
      while ((b = in.read()) >= 0) {
        copy.write(b);
        if (b == '\n') {
          break;
        }
        if (b != '\r') {
          line.append((char) b);
        }
      }
      return line.toString();
    }

    /** The head with {@code Connection: close} instead of the client's connection headers. */
    byte[] forwardedHead() {
      StringBuilder head = new StringBuilder(requestLine).append("\r\n");
      for (String line : headers) {
        int colon = line.indexOf(':');
        String name = colon > 0 ? line.substring(0, colon).trim().toLowerCase(Locale.ROOT) : "";
        if (!DROPPED_HEADERS.contains(name)) {
          head.append(line).append("\r\n");
        }
      }
      head.append("Connection: close\r\n\r\n");
      return head.toString().getBytes(StandardCharsets.ISO_8859_1);
    }
  }

  private static Thread daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  @Override
  public void close() {
    releaseHeld();
    try {
      listener.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the proxy at " + endpoint(), e);
    } finally {
      for (Socket socket : open) {
        try {
          socket.close();
        } catch (IOException ignored) {
          // closing anyway
        }
      }
    }
  }
}
