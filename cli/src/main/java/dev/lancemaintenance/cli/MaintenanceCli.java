package dev.lancemaintenance.cli;

import dev.lancemaintenance.MaintenanceEngine;
import dev.lancemaintenance.UserErrors;
import java.io.PrintStream;
import java.util.ArrayList;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;

/**
 * {@code bin/lance-maintenance}: maintenance of Lance tables from a shell.
 *
 * <p>Exit codes: 0 success, 1 the run refused or failed (the reason, naming the table, is one line
 * on stderr; {@code --verbose} adds the stack trace), 2 the command line was not understood (an
 * unknown, repeated or malformed option, a URI with credentials), 3 the run finished but some
 * deletes failed ({@code failed_deletes > 0}: those files and the expired manifests stay for the
 * next run).
 */
public final class MaintenanceCli {
  /** The run completed, but some files could not be deleted; a rerun retries them. */
  static final int EXIT_FAILED_DELETES = 3;

  /**
   * The usage message. Built when asked, not when the class is initialised: the commands' usage
   * texts reach classes that hold loggers, and {@link #main} must configure logging first
   * ({@link CliLogging}).
   */
  static String usage() {
    return "usage: lance-maintenance <command> ...\n\n"
        + "  " + InspectCommand.USAGE + "\n"
        + "      versions, tags, branches and the files each version references\n\n"
        + "  " + DescribeCommand.USAGE + "\n"
        + "      what the files are for, and what a cleanup would free now and under other windows\n\n"
        + "  " + CleanupCommand.USAGE + "\n"
        + "      remove versions older than the window and the files only they referenced\n\n"
        + "  " + CleanupAllCommand.USAGE + "\n"
        + "      cleanup of every table under a directory (--pattern, default *.lance), one line per table\n\n"
        + "  " + CompactCommand.USAGE + "\n"
        + "      merge small fragments with Lance's own planner (needs org.lance:lance-core)\n\n"
        + "  " + OptimizeCommand.USAGE + "\n"
        + "      compact, then clean up; refuses first if a tag would stop the cleanup\n\n"
        + "  " + TagCommand.USAGE + "\n"
        + "      list, create, move and delete the table's tags (what keeps old versions alive)\n\n"
        + "  " + CleanupCommand.ORPHANS_USAGE + "\n"
        + "      remove files no version references (uncommitted writes) older than the window; expires no version\n\n"
        + "  " + DescribeAllCommand.USAGE + "\n"
        + "      describe of every table under a directory (--pattern, default *.lance), one line of totals per table\n\n"
        + "  " + HistoryCommand.USAGE + "\n"
        + "      the table's maintenance runs, newest first: finished, failed, or unfinished (the run died)\n\n"
        + "  " + ExpireCommand.USAGE + "\n"
        + "      remove the manifests of expired versions without reading the retained ones; a later\n"
        + "      cleanup with the same policy removes their files (for histories too large to mark)\n\n"
        + "  " + OptimizeAllCommand.USAGE + "\n"
        + "      optimize of every table under a directory (--pattern, default *.lance), one line per table\n\n"
        + "  Every command also takes --verbose: the stack trace of an error, after its one line.\n"
        + "  Exit codes: 0 success, 1 the run refused or failed, 2 the command line was not understood,\n"
        + "  3 the run finished but some deletes failed (a rerun retries them).\n";
  }

  /** The commands an engine's own entry point ({@code flink run}) runs; the first is the default. */
  private static final List<String> ENGINE_COMMANDS = List.of("cleanup", "compact", "optimize", "remove-orphans");

  private final Clock clock;
  private final String usage;
  private final Engines engines;

  MaintenanceCli(Clock clock) {
    this(clock, usage(), Engines.onClasspath());
  }

  private MaintenanceCli(Clock clock, String usage, Engines engines) {
    this.clock = clock;
    this.usage = usage;
    this.engines = engines;
  }

  public static void main(String[] args) {
    CliLogging.configure(Arrays.asList(args));
    System.exit(execute(Arrays.asList(args), System.out, System.err));
  }

  /** Runs one command line and returns its exit code. */
  public static int execute(List<String> args, PrintStream out, PrintStream err) {
    return new MaintenanceCli(Clock.systemUTC()).run(args, out, err);
  }

  /**
   * Runs one command line of a launcher that handles more commands itself; {@code moreCommands}
   * (usage lines in the format of {@link #usage()}) is added to every usage message this prints.
   */
  public static int execute(List<String> args, PrintStream out, PrintStream err, String moreCommands) {
    return new MaintenanceCli(Clock.systemUTC(), usage() + moreCommands, Engines.onClasspath()).run(args, out, err);
  }

  /**
   * Runs {@code [cleanup|compact|optimize|remove-orphans] <table-uri> [options]} on {@code engine}, for an
   * entry point that is the engine's own ({@code flink run}): the arguments are parsed once, as the
   * command of that name parses them (cleanup when none is named), and the action is made by {@code
   * engine} without looking any engine up; {@code --engine} may only name it.
   */
  public static int executeOn(MaintenanceEngine engine, List<String> args, PrintStream out, PrintStream err) {
    boolean named = !args.isEmpty() && ENGINE_COMMANDS.contains(args.get(0));
    MaintenanceCli cli = new MaintenanceCli(Clock.systemUTC(), usage(), Engines.only(engine));
    return named
        ? cli.runCommand(args.get(0), args.subList(1, args.size()), out, err)
        : cli.runCommand(ENGINE_COMMANDS.get(0), args, out, err);
  }

  int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.get(0).equals("--help") || args.get(0).equals("help")) {
      (args.isEmpty() ? err : out).print(usage);
      return args.isEmpty() ? 2 : 0;
    }
    return runCommand(args.get(0), args.subList(1, args.size()), out, err);
  }

  private int runCommand(String command, List<String> args, PrintStream out, PrintStream err) {
    List<String> rest = new ArrayList<>(args);
    boolean verbose = rest.remove("--verbose");
    try {
      return switch (command) {
        case "inspect" -> new InspectCommand().run(rest, out, err);
        case "describe" -> new DescribeCommand(clock).run(rest, out);
        case "cleanup" -> new CleanupCommand(clock, engines, verbose).run(rest, out, err);
        case "cleanup-all" -> new CleanupAllCommand(clock, engines).run(rest, out, err);
        case "compact" -> new CompactCommand(engines).run(rest, out, err);
        case "optimize" -> new OptimizeCommand(clock, engines).run(rest, out, err);
        case "tag" -> new TagCommand(clock).run(rest, out);
        case "remove-orphans" -> new CleanupCommand(CleanupCommand.Kind.REMOVE_ORPHANS, clock, engines, verbose).run(rest, out, err);
        case "describe-all" -> new DescribeAllCommand(clock).run(rest, out, err);
        case "history" -> new HistoryCommand(clock).run(rest, out);
        case "expire" -> new ExpireCommand(clock).run(rest, out, err);
        case "optimize-all" -> new OptimizeAllCommand(clock, engines).run(rest, out, err);
        default -> throw new UsageException("Unknown command '" + command + "'");
      };
    } catch (UsageException e) {
      err.println("lance-maintenance: " + e.getMessage());
      if (verbose) {
        e.printStackTrace(err);
      }
      err.print(usage);
      return 2;
    } catch (Exception e) { // engines throw checked ones too (a Spark job failure)
      err.println("lance-maintenance: " + UserErrors.message(e));
      if (verbose) {
        e.printStackTrace(err);
      }
      return 1;
    }
  }
}
