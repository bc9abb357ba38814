package dev.lancemaintenance.spark.procedures;

import dev.lancemaintenance.OptionCatalogue;
import java.util.Objects;
import java.util.Optional;

/**
 * What every Lance procedure states once, in its constructor: its name, the line Spark shows for it
 * ({@code DESCRIBE PROCEDURE}, {@code SHOW PROCEDURES}) and the option catalogue its arguments come
 * from, if any. A procedure then says only what is its own: its parameters, its columns and its call.
 */
abstract class BaseLanceProcedure implements LanceProcedure {
  private final String name;
  private final String description;
  private final Optional<OptionCatalogue> catalogue;

  /** A procedure whose arguments come from no catalogue (the tag and history procedures). */
  BaseLanceProcedure(String name, String description) {
    this(name, description, Optional.empty());
  }

  BaseLanceProcedure(String name, String description, OptionCatalogue catalogue) {
    this(name, description, Optional.of(catalogue));
  }

  private BaseLanceProcedure(String name, String description, Optional<OptionCatalogue> catalogue) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = Objects.requireNonNull(description, "description");
    this.catalogue = catalogue;
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
}
