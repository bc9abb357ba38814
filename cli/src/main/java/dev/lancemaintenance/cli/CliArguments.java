package dev.lancemaintenance.cli;

import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parsed {@code --flag}, {@code --option value} (or {@code --option=value}) and positional
 * arguments of one subcommand. Every flag and option is declared, so a typo is a usage error
 * instead of a silently ignored option; a flag takes no value and an option never takes the next
 * option as its value, so no slip turns a dry run into a real one.
 */
final class CliArguments {
  private static final String S3_IMPL = "fs.s3.impl";

  private final List<String> positionals = new ArrayList<>();
  private final Map<String, List<String>> options = new HashMap<>();
  private final Set<String> flags;

  private CliArguments(Set<String> flags) {
    this.flags = flags;
  }

  /**
   * @param flags names (without {@code --}) that take no value
   * @param valued names that take one value (repeatable)
   */
  static CliArguments parse(List<String> args, Set<String> flags, Set<String> valued) {
    CliArguments parsed = new CliArguments(flags);
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!arg.startsWith("--")) {
        parsed.positionals.add(arg);
        continue;
      }
      String name = arg.substring(2);
      String value = null;
      int equals = name.indexOf('=');
      if (equals >= 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      }
      if (flags.contains(name)) {
        if (value != null) {
          // --dry-run=false must not run for real with a message about an unknown option, nor dry.
          throw new UsageException("--" + name + " takes no value, not '" + value + "'");
        }
        parsed.options.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new UsageException("--" + name + " needs a value");
          }
          if (args.get(i + 1).startsWith("--")) {
            // Else "--spill-dir --dry-run" is a real run: the next option is never a value (use
            // --name=--value for a value that starts with two dashes).
            throw new UsageException("--" + name + " needs a value, not the option " + args.get(i + 1));
          }
          value = args.get(++i);
        }
        parsed.options.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      } else {
        throw new UsageException("Unknown option --" + name);
      }
    }
    return parsed;
  }

  List<String> positionals() {
    return positionals;
  }

  /**
   * The one positional argument of a command that takes exactly one (a table's or a root's URI);
   * with none or several, {@code notOne} as the usage error.
   */
  String onlyPositional(String notOne) {
    if (positionals.size() != 1) {
      throw new UsageException(notOne);
    }
    return positionals.get(0);
  }

  boolean flag(String name) {
    if (!flags.contains(name)) {
      throw new IllegalArgumentException("undeclared flag " + name);
    }
    return options.containsKey(name);
  }

  /** How many times {@code --name} was given. */
  int count(String name) {
    List<String> values = options.get(name);
    return values == null ? 0 : values.size();
  }

  String value(String name) {
    List<String> values = options.get(name);
    return values == null ? null : values.get(values.size() - 1);
  }

  long longValue(String name, long defaultValue) {
    String value = value(name);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new UsageException("--" + name + " must be a whole number, not '" + value + "'");
    }
  }

  /**
   * The Hadoop settings of the run: the {@code --conf} options, with {@code s3://} mapped to S3A
   * unless the user maps it (outside EMR no Hadoop file system serves the scheme Lance and most
   * docs write S3 tables with). Core-site's mapping, as on EMR, also wins: the key is only added
   * when Hadoop's own configuration has none. A run that can reach no {@code s3://} location does
   * not ask: Hadoop's configuration loads and parses its XML defaults, a cost a command on a local
   * table would pay for nothing on every start (docs/benchmarks.md, Cold CLI). One that can asks
   * {@link StorageConf}'s parsed defaults, which the run's storage then copies instead of parsing
   * them a second time.
   */
  Map<String, String> hadoopConf() {
    Map<String, String> conf = keyValues("conf");
    if (!conf.containsKey(S3_IMPL) && mayReachS3() && StorageConf.defaults().toConfiguration().get(S3_IMPL) == null) {
      conf.put(S3_IMPL, "org.apache.hadoop.fs.s3a.S3AFileSystem");
    }
    return conf;
  }

  /** Whether an argument names a place off this machine, or an option value is an s3: URI. */
  private boolean mayReachS3() {
    for (String positional : positionals) {
      if (!onLocalDisk(positional)) {
        return true;
      }
    }
    for (List<String> values : options.values()) {
      for (String value : values) {
        if (value.regionMatches(true, 0, "s3:", 0, 3)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean onLocalDisk(String location) {
    try {
      return TableLocation.of(location).localPath().isPresent();
    } catch (RuntimeException notALocation) {
      return false;
    }
  }

  /** {@code --name key=value} options, in order. */
  Map<String, String> keyValues(String name) {
    Map<String, String> result = new LinkedHashMap<>();
    for (String entry : options.getOrDefault(name, List.of())) {
      int equals = entry.indexOf('=');
      if (equals <= 0) {
        throw new UsageException("--" + name + " takes key=value, not '" + entry + "'");
      }
      result.put(entry.substring(0, equals), entry.substring(equals + 1));
    }
    return result;
  }
}
