package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * What every Lance procedure states once, in its constructor: its name, the line Spark shows for it
 * ({@code DESCRIBE PROCEDURE}, {@code SHOW PROCEDURES}), the option catalogue its arguments come
 * from, if any, and the columns it returns, when every call returns the same ones. A procedure then
 * says only what is its own: its parameters and its call (and its columns, when they depend on the
 * call: {@code lance.cleanup}'s dry run lists files).
 */
abstract class BaseLanceProcedure implements LanceProcedure {
  private final String name;
  private final String description;
  private final Optional<OptionCatalogue> catalogue;
  private final Optional<StructType> schema;

  /** A procedure whose arguments come from no catalogue (the tag and history procedures). */
  BaseLanceProcedure(String name, String description, StructType schema) {
    this(name, description, Optional.empty(), Optional.of(schema));
  }

  BaseLanceProcedure(String name, String description, OptionCatalogue catalogue, StructType schema) {
    this(name, description, Optional.of(catalogue), Optional.of(schema));
  }

  /** A procedure whose columns depend on the call: it overrides {@link #schema}. */
  BaseLanceProcedure(String name, String description, OptionCatalogue catalogue) {
    this(name, description, Optional.of(catalogue), Optional.empty());
  }

  private BaseLanceProcedure(
      String name, String description, Optional<OptionCatalogue> catalogue, Optional<StructType> schema) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = Objects.requireNonNull(description, "description");
    this.catalogue = catalogue;
    this.schema = schema;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final Optional<OptionCatalogue> catalogue() {
    return catalogue;
  }

  @Override
  public StructType schema(BoundCall call) {
    return schema.orElseThrow(() -> new IllegalStateException(
        "lance." + name + " states no columns in its constructor and does not override schema(BoundCall)"));
  }
}
