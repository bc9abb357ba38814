package dev.lancemaintenance.flink;

import java.io.Serializable;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

/**
 * A sink that hands every element to a callback, for tests whose job runs on the MiniCluster in the
 * test's own JVM. The callback is serialized with the job, so it should reach the test through a
 * static field (a lambda that captures nothing), not through a captured collection.
 */
public final class CallbackSink<T> implements Sink<T> {
  /** What the sink does with each element. */
  public interface Callback<T> extends Serializable {
    void accept(T element);
  }

  private final Callback<T> callback;

  public CallbackSink(Callback<T> callback) {
    this.callback = callback;
  }

  @Override
  public SinkWriter<T> createWriter(WriterInitContext context) {
    return new SinkWriter<>() {
      @Override
      public void write(T element, Context context) {
        callback.accept(element);
      }

      @Override
      public void flush(boolean endOfInput) {}

      @Override
      public void close() {}
    };
  }
}
