package dev.lancemaintenance.testing;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.UncheckedIOException;

/**
 * A trip through Java serialization, as Spark's closure serializer and Flink's function shipping
 * make it: what an engine sends to its tasks must come back whole and still work.
 */
public final class JavaSerialization {
  private JavaSerialization() {}

  /** {@code value} serialized and read back, a new object graph. */
  @SuppressWarnings("unchecked")
  public static <T> T roundTrip(T value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serialize " + value.getClass().getName(), e);
    }
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot deserialize " + value.getClass().getName(), e);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("cannot deserialize " + value.getClass().getName(), e);
    }
  }
}
