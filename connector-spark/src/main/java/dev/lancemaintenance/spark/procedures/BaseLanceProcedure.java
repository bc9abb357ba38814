package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * What every Lance procedure states once, in its constructor: its name, the line Spark shows for it
 * ({@code DESCRIBE PROCEDURE}, {@code SHOW PROCEDURES}), the option catalogue its arguments come
 * from, if any, the columns it returns, when every call returns the same ones, and the clock its
 * calls read "now" from (the catalog's: tests fix it). A procedure then
 * says only what is its own: its parameters and its call (and its columns, when they depend on the
 * call: {@code lance.cleanup}'s dry run lists files).
 */
abstract class BaseLanceProcedure implements LanceProcedure {
  private final String name;
  private final String description;
  private final Optional<OptionCatalogue> catalogue;
  private final Optional<StructType> schema;
  /** Where a call reads "now" from: the cut-off of {@code older_than}, the run's records. */
  protected final Clock clock;

  /** A procedure whose arguments come from no catalogue (the tag and history procedures). */
  BaseLanceProcedure(String name, String description, StructType schema, Clock clock) {
    this(name, description, Optional.empty(), Optional.of(schema), clock);
  }

  BaseLanceProcedure(String name, String description, OptionCatalogue catalogue, StructType schema, Clock clock) {
    this(name, description, Optional.of(catalogue), Optional.of(schema), clock);
  }

  /** A procedure whose columns depend on the call: it overrides {@link #schema}. */
  BaseLanceProcedure(String name, String description, OptionCatalogue catalogue, Clock clock) {
    this(name, description, Optional.of(catalogue), Optional.empty(), clock);
  }

  private BaseLanceProcedure(
      String name, String description, Optional<OptionCatalogue> catalogue, Optional<StructType> schema, Clock clock) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = Objects.requireNonNull(description, "description");
    this.catalogue = catalogue;
    this.schema = schema;
    this.clock = Objects.requireNonNull(clock, "clock");
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
