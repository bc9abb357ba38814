package dev.lancemaintenance.cli;

import dev.lancemaintenance.format.Tag;
import dev.lancemaintenance.storage.TableStorages;
import dev.lancemaintenance.storage.StorageConf;
import dev.lancemaintenance.storage.TableLocation;
import dev.lancemaintenance.storage.TableStorage;
import dev.lancemaintenance.tags.TableTags;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code tag list|create|move|delete <table-uri> ...}: the table's tags, in the format the SDK reads
 * and writes; what a cleanup that refuses over a tagged old version asks the user to do.
 */
final class TagCommand {
  static final String USAGE =
      "tag list <table-uri> | tag create|move <table-uri> <name> <version> [--branch NAME] | tag delete <table-uri> <name>"
          + " [--conf HADOOP_KEY=VALUE]...";

  private final Clock clock;

  TagCommand(Clock clock) {
    this.clock = clock;
  }

  int run(List<String> args, PrintStream out) {
    CliArguments parsed = CliArguments.parse(args, Set.of(), Set.of("conf", "branch"));
    List<String> positionals = parsed.positionals();
    if (positionals.isEmpty()) {
      throw new UsageException("tag needs a subcommand: list, create, move or delete");
    }
    String action = positionals.get(0);
    int arity = switch (action) {
      case "list" -> 2;
      case "create", "move" -> 4;
      case "delete" -> 3;
      default -> throw new UsageException("Unknown tag subcommand '" + action + "': list, create, move or delete");
    };
    if (positionals.size() != arity) {
      throw new UsageException("tag " + action + " takes " + (arity - 1) + " argument(s): " + USAGE);
    }
    if (parsed.count("branch") > 0 && arity != 4) {
      throw new UsageException("--branch is for tag create and tag move");
    }
    TableLocation location;
    try {
      location = TableLocation.of(positionals.get(1));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    try (TableStorage storage = TableStorages.open(location, StorageConf.of(parsed.hadoopConf()))) {
      TableTags tags = TableTags.of(storage, clock);
      Optional<String> branch = Optional.ofNullable(parsed.value("branch"));
      switch (action) {
        case "list" -> tags.list().forEach(tag -> out.println(tag.name() + "\t" + describe(tag)));
        case "create" -> out.println("created tag " + positionals.get(2) + " -> "
            + describe(tags.create(positionals.get(2), version(positionals.get(3)), branch)));
        case "move" -> out.println("moved tag " + positionals.get(2) + " -> "
            + describe(tags.move(positionals.get(2), version(positionals.get(3)), branch)));
        default -> {
          tags.delete(positionals.get(2));
          out.println("deleted tag " + positionals.get(2));
        }
      }
    }
    return 0;
  }

  private static String describe(Tag tag) {
    return tag.branch().map(b -> "branch " + b + " ").orElse("") + "v" + tag.version();
  }

  private static long version(String text) {
    try {
      long version = Long.parseLong(text);
      if (version < 1) {
        throw new UsageException("a version is a number from 1, not '" + text + "'");
      }
      return version;
    } catch (NumberFormatException e) {
      throw new UsageException("a version is a number, not '" + text + "'");
    }
  }
}
