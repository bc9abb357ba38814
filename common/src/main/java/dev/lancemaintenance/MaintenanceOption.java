package dev.lancemaintenance;

import java.util.Optional;

/**
 * One option of a maintenance action, as its catalogue declares it ({@link
 * dev.lancemaintenance.cleanup.CleanupOption}, {@link dev.lancemaintenance.compaction.CompactionOption}):
 * the name in SQL and option maps, how a value is written, its default and its doc. Entry points
 * derive their parameters from these (the command line's spelling, SQL types) and read values
 * through {@link #parse}, so every entry point gives the same error for the same mistake.
 */
public interface MaintenanceOption {

  /** How a value is written; entry points map it to their own types (SQL BOOLEAN, BIGINT, DOUBLE, ...). */
  enum Type {
    /** A duration or an instant ({@code older_than}); SQL callers may also pass a TIMESTAMP. */
    CUTOFF,
    LONG,
    INT,
    DOUBLE,
    BOOLEAN,
    STRING
  }

  /**
   * What a catalogue declares about an option.
   *
   * @param sqlName the name in SQL and option maps ({@code older_than}, {@code target_rows_per_fragment})
   * @param defaultValue the default as text; null when absent means "no bound", "main" or the
   *     library's own default
   * @param doc what the option does, and its risk where it has one
   */
  record Declaration(String sqlName, Type type, String defaultValue, String doc) {}

  Declaration declaration();

  /** The name in SQL and option maps ({@code older_than}, {@code target_rows_per_fragment}). */
  default String sqlName() {
    return declaration().sqlName();
  }

  default Type type() {
    return declaration().type();
  }

  /** The default as text; empty when absent means "no bound", "main" or the library's own default. */
  default Optional<String> defaultValue() {
    return Optional.ofNullable(declaration().defaultValue());
  }

  /** Whether the option decides which files go: a NULL for it is an error, never the default. */
  boolean changesWhatIsDeleted();

  default String doc() {
    return declaration().doc();
  }

  /** The action whose argument this is, capitalised for the start of a message ({@code Cleanup}). */
  String kind();

  /**
   * The command-line spelling: {@code --older-than}; a boolean that defaults to true is switched off
   * with {@code --no-...} ({@code --no-error-if-tagged-old-versions}).
   */
  default String cliName() {
    String flag = sqlName().replace('_', '-');
    return type() == Type.BOOLEAN && defaultValue().filter("true"::equals).isPresent() ? "no-" + flag : flag;
  }

  /** Whether the command line takes this option as a flag without a value. */
  default boolean cliFlag() {
    return type() == Type.BOOLEAN;
  }

  /** What the command-line synopsis shows for the value ({@code N}, {@code SHARE}). */
  default String cliPlaceholder() {
    return switch (type()) {
      case CUTOFF -> "DURATION|ISO-INSTANT";
      case STRING -> "NAME";
      case DOUBLE -> "SHARE";
      default -> "N";
    };
  }

  /** The value {@code text} gives this option; the error names the option. */
  default Object parse(String text) {
    String trimmed = text.trim();
    try {
      return switch (type()) {
        case CUTOFF, STRING -> text;
        case LONG -> Long.parseLong(trimmed);
        case INT -> Integer.parseInt(trimmed);
        case DOUBLE -> Double.parseDouble(trimmed);
        case BOOLEAN -> {
          if (trimmed.equalsIgnoreCase("true")) {
            yield Boolean.TRUE;
          }
          if (trimmed.equalsIgnoreCase("false")) {
            yield Boolean.FALSE;
          }
          throw new IllegalArgumentException(
              kind() + " argument '" + sqlName() + "' takes true or false, not '" + text + "'");
        }
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(kind() + " argument '" + sqlName() + "' takes "
          + (type() == Type.DOUBLE ? "a number" : "a whole number" + (type() == Type.INT ? " up to " + Integer.MAX_VALUE : ""))
          + ", not '" + text + "'");
    }
  }

  /** The error for a NULL given to an option that decides what is deleted. */
  default IllegalArgumentException nullValue() {
    return new IllegalArgumentException(
        kind() + " argument '" + sqlName() + "' is NULL: give a value or leave the argument out"
            + defaultValue().map(value -> " (default " + value + ")").orElse("")
            + "; a NULL never means the default for an argument that decides what is deleted");
  }
}
