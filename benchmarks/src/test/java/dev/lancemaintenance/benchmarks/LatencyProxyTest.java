package dev.lancemaintenance.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The proxy against a tiny request/answer server on the loopback: each request is a length-prefixed
 * payload, the answer the same bytes. Timings are lower bounds only (a busy machine is slower, never
 * faster).
 */
class LatencyProxyTest {
  private static final Duration DELAY = Duration.ofMillis(60);

  private ServerSocket echo;
  private LatencyProxy proxy;

  @BeforeEach
  void startEchoBehindProxy() throws IOException {
    echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread server = new Thread(this::answerEveryRequest, "echo");
    server.setDaemon(true);
    server.start();
    proxy = LatencyProxy.start(URI.create("http://127.0.0.1:" + echo.getLocalPort()), DELAY);
  }

  @AfterEach
  void stop() throws IOException {
    proxy.close();
    echo.close();
  }

  @Test
  void delaysEveryRequestOnAKeptAliveConnection() throws IOException {
    try (Connection connection = new Connection(proxy.endpoint())) {
      for (int request = 0; request < 3; request++) {
        long start = System.nanoTime();
        connection.roundTrip(new byte[] {1, 2, 3});
        assertThat(Duration.ofNanos(System.nanoTime() - start)).as("request %d", request)
            .isGreaterThanOrEqualTo(DELAY);
      }
    }
    assertThat(proxy.requests()).isEqualTo(3);
  }

  @Test
  void forwardsLargePayloadsUnchangedBothWays() throws IOException {
    byte[] payload = new byte[3 * 1024 * 1024 + 17];
    new Random(7).nextBytes(payload);
    try (Connection connection = new Connection(proxy.endpoint())) {
      assertThat(connection.roundTrip(payload)).isEqualTo(payload);
      assertThat(connection.roundTrip(new byte[] {42})).containsExactly(42);
    }
  }

  private void answerEveryRequest() {
    while (!echo.isClosed()) {
      try {
        Socket socket = echo.accept();
        Thread answer = new Thread(() -> answer(socket), "echo-answer");
        answer.setDaemon(true);
        answer.start();
      } catch (IOException closed) {
        return;
      }
    }
  }

  private static void answer(Socket socket) {
    try (socket) {
      DataInputStream in = new DataInputStream(socket.getInputStream());
      DataOutputStream out = new DataOutputStream(socket.getOutputStream());
      while (true) {
        byte[] request = new byte[in.readInt()];
        in.readFully(request);
        out.writeInt(request.length);
        out.write(request);
        out.flush();
      }
    } catch (IOException endOfConnection) {
      // The client closed its connection.
    }
  }

  /** One client connection through the proxy. */
  private static final class Connection implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    Connection(URI endpoint) throws IOException {
      socket = new Socket(endpoint.getHost(), endpoint.getPort());
      in = new DataInputStream(socket.getInputStream());
      out = new DataOutputStream(socket.getOutputStream());
    }

    byte[] roundTrip(byte[] request) throws IOException {
      out.writeInt(request.length);
      out.write(request);
      out.flush();
      byte[] answer = new byte[in.readInt()];
      in.readFully(answer);
      return answer;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
