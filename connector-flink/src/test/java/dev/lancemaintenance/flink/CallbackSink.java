package dev.lancemaintenance.flink;

import java.io.Serializable;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Ends a stream by handing every element to a callback, for tests whose job runs on the MiniCluster
 * in the test's own JVM. The callback is serialized with the job, so it should reach the test through
 * a static field (a lambda that captures nothing), not through a captured collection.
 *
 * <p>An operator in front of Flink's {@link DiscardingSink} rather than a sink of its own: a {@code
 * Sink} implements {@code createWriter(InitContext)} on Flink 1.20 and {@code
 * createWriter(WriterInitContext)} on 2.x, so no one class compiles on both lines, while the
 * operator and the discarding sink run on both.
 */
public final class CallbackSink {
  /** What the sink does with each element. */
  public interface Callback<T> extends Serializable {
    void accept(T element);
  }

  private CallbackSink() {}

  /**
   * Hands each element of {@code stream} to {@code callback}, in the stream's own order: the
   * callback runs at the stream's parallelism, chained to the operator that produced it.
   */
  public static <T> DataStreamSink<T> into(DataStream<T> stream, Callback<T> callback) {
    FilterFunction<T> handOver = element -> {
      callback.accept(element);
      return false;
    };
    return stream.filter(handOver)
        .setParallelism(stream.getParallelism())
        .name("callback")
        .sinkTo(new DiscardingSink<>());
  }
}
