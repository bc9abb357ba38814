package dev.lancemaintenance.cli;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/** JSON output of the command line: one object, printed as it is produced. */
final class Json {
  private static final JsonFactory FACTORY = new JsonFactory();

  private Json() {}

  static JsonGenerator generator(OutputStream out) {
    try {
      JsonGenerator generator = FACTORY.createGenerator(out, JsonEncoding.UTF8);
      generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      return generator;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints one object, {@code fields} writing what is between its braces, and a line break. */
  static void printObject(PrintStream out, Fields fields) {
    try {
      JsonGenerator json = generator(out);
      json.writeStartObject();
      fields.write(json);
      json.writeEndObject();
      json.flush();
      out.println();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The fields of an object {@link #printObject} prints. */
  @FunctionalInterface
  interface Fields {
    void write(JsonGenerator json) throws IOException;
  }

  /** One step of writing that may fail with an I/O error. */
  @FunctionalInterface
  interface Write {
    void run() throws IOException;
  }
}
