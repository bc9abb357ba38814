package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The command line's side of the option catalogues: a command's synopsis, its flags and valued
 * options, and the values given, all generated from the options the command takes, so a catalogue
 * option cannot be missing from a command or spelt differently in its usage.
 */
final class OptionArguments {
  /** Where a synopsis wraps, and how its continuation lines are indented. */
  private static final int WIDTH = 100;
  private static final String CONTINUATION = "\n       ";

  private OptionArguments() {}

  /** {@code [--name]} for a flag, {@code [--name PLACEHOLDER]} for a valued option. */
  static String usageItem(MaintenanceOption option) {
    return option.cliFlag()
        ? "[--" + option.cliName() + "]"
        : "[--" + option.cliName() + " " + option.cliPlaceholder() + "]";
  }

  static List<String> usageItems(List<? extends MaintenanceOption> options) {
    List<String> items = new ArrayList<>();
    options.forEach(option -> items.add(usageItem(option)));
    return items;
  }

  /** {@code head} and the items, wrapped before a line passes {@value #WIDTH} characters. */
  static String synopsis(String head, List<String> items) {
    StringBuilder usage = new StringBuilder(head);
    int width = usage.length();
    for (String item : items) {
      if (width + item.length() + 1 > WIDTH) {
        usage.append(CONTINUATION);
        width = CONTINUATION.length() - 1;
      }
      usage.append(' ').append(item);
      width += item.length() + 1;
    }
    return usage.toString();
  }

  /** Parses a command's arguments: the options' command-line names, with the command's own flags and valued names. */
  static CliArguments parse(
      List<String> args, List<? extends MaintenanceOption> options, Set<String> ownFlags, Set<String> ownValued) {
    return CliArguments.parse(args, flags(options, ownFlags), valued(options, ownValued));
  }

  /** The options' command-line names that take no value, with the command's own. */
  static Set<String> flags(List<? extends MaintenanceOption> options, Set<String> own) {
    Set<String> flags = new TreeSet<>(own);
    options.stream().filter(MaintenanceOption::cliFlag).forEach(option -> flags.add(option.cliName()));
    return flags;
  }

  /** The options' command-line names that take a value, with the command's own. */
  static Set<String> valued(List<? extends MaintenanceOption> options, Set<String> own) {
    Set<String> valued = new TreeSet<>(own);
    options.stream().filter(option -> !option.cliFlag()).forEach(option -> valued.add(option.cliName()));
    return valued;
  }

  /**
   * The options given on the command line, each at most once, parsed by the catalogue: a flag
   * gives true ({@code --dry-run}) or, spelt {@code --no-...}, false.
   */
  static Map<MaintenanceOption, Object> values(CliArguments parsed, List<? extends MaintenanceOption> options) {
    Map<MaintenanceOption, Object> values = new LinkedHashMap<>();
    for (MaintenanceOption option : options) {
      String name = option.cliName();
      if (parsed.count(name) > 1) {
        throw new UsageException("--" + name + " is given more than once");
      }
      if (option.cliFlag()) {
        if (parsed.flag(name)) {
          values.put(option, !name.startsWith("no-"));
        }
      } else if (parsed.value(name) != null) {
        try {
          values.put(option, option.parse(parsed.value(name)));
        } catch (IllegalArgumentException e) {
          boolean number = option.type() == MaintenanceOption.Type.LONG || option.type() == MaintenanceOption.Type.INT;
          throw new UsageException(number
              ? "--" + name + " must be a whole number, not '" + parsed.value(name) + "'"
              : "--" + name + ": " + e.getMessage());
        }
      }
    }
    return values;
  }
}
