package dev.lancemaintenance.runs;

import java.time.Instant;
import java.util.Map;

/** Reads the fields of one decoded record, failing with the field's name when one is missing or malformed. */
final class RecordFields {
  private final Map<String, String> fields;

  RecordFields(Map<String, String> fields, String kind) {
    this.fields = fields;
    if (!kind.equals(fields.get("record"))) {
      throw new IllegalArgumentException("not a " + kind + " record: record=" + fields.get("record"));
    }
  }

  String text(String key) {
    String value = fields.get(key);
    if (value == null) {
      throw new IllegalArgumentException("no " + key);
    }
    return value;
  }

  boolean has(String key) {
    return fields.containsKey(key);
  }

  long number(String key) {
    return Long.parseLong(text(key));
  }

  Instant instant(String key) {
    return Instant.parse(text(key));
  }
}
