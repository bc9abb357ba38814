package dev.lancemaintenance;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The options one action takes, from one or more catalogues: cleanup takes the cleanup options,
 * compact the compaction options, optimize both. The one parsing path of option maps and the one
 * place of the errors for an unknown name (listing the valid ones) and a name given twice, so that
 * every entry point of every action rejects a mistake in the same words, before anything is read.
 */
public final class OptionCatalogue {
  private final String action;
  private final List<MaintenanceOption> options;

  private OptionCatalogue(String action, List<MaintenanceOption> options) {
    this.action = action;
    this.options = List.copyOf(options);
  }

  /**
   * @param action the action's name in messages ({@code cleanup}, {@code optimize})
   * @param catalogues its options, in the order entry points list them
   */
  @SafeVarargs
  public static OptionCatalogue of(String action, List<? extends MaintenanceOption>... catalogues) {
    List<MaintenanceOption> all = new ArrayList<>();
    for (List<? extends MaintenanceOption> catalogue : catalogues) {
      all.addAll(catalogue);
    }
    return new OptionCatalogue(action, all);
  }

  public String action() {
    return action;
  }

  public List<MaintenanceOption> options() {
    return options;
  }

  /** Every option's SQL name, in order. */
  public List<String> sqlNames() {
    return options.stream().map(MaintenanceOption::sqlName).toList();
  }

  /** The option named {@code name} (case-insensitive, as SQL); the error names it and lists the valid ones. */
  public MaintenanceOption named(String name, Collection<String> alsoValid) {
    for (MaintenanceOption option : options) {
      if (option.sqlName().equalsIgnoreCase(name)) {
        return option;
      }
    }
    throw unknown(name, alsoValid);
  }

  /** The error for a name that is neither an option nor one of the entry point's own arguments. */
  public IllegalArgumentException unknown(String name, Collection<String> alsoValid) {
    List<String> valid = new ArrayList<>(alsoValid);
    valid.addAll(sqlNames());
    return new IllegalArgumentException(
        "Unknown " + action + " argument '" + name + "'; valid arguments: " + String.join(", ", valid));
  }

  /** Rejects a name given twice (case-insensitive): which one should win is a guess. */
  public void requireDistinct(Collection<String> names) {
    Set<String> seen = new HashSet<>();
    for (String name : names) {
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(
            capitalised(action) + " argument '" + name + "' is given more than once");
      }
    }
  }

  /**
   * Options parsed from text by name ({@code {"older_than": "7d", "dry_run": "true"}}), checked
   * against this catalogue: for option maps and the command line. A NULL for an option that decides
   * what is deleted is an error; for any other it is left out, as an option not given.
   */
  public Map<MaintenanceOption, Object> parseAll(Map<String, String> textByName) {
    requireDistinct(textByName.keySet());
    Map<MaintenanceOption, Object> values = new LinkedHashMap<>();
    textByName.forEach((name, text) -> {
      MaintenanceOption option = named(name, List.of());
      if (text == null) {
        if (option.changesWhatIsDeleted()) {
          throw option.nullValue();
        }
        return;
      }
      values.put(option, option.parse(text));
    });
    return values;
  }

  /** The values of one catalogue's options among {@code values} ({@code CleanupOption.class}). */
  public static <O extends MaintenanceOption> Map<O, Object> only(Class<O> catalogue, Map<? extends MaintenanceOption, ?> values) {
    Map<O, Object> selected = new LinkedHashMap<>();
    values.forEach((option, value) -> {
      if (catalogue.isInstance(option)) {
        selected.put(catalogue.cast(option), value);
      }
    });
    return selected;
  }

  private static String capitalised(String word) {
    return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
  }
}
