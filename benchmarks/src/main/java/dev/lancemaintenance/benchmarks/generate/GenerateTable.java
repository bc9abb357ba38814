package dev.lancemaintenance.benchmarks.generate;

import java.nio.file.Path;
import java.time.Clock;

/**
 * Command line of the generator:
 *
 * <pre>{@code
 * bin/benchmark generate --shape large --out /tmp/bench/large [--versions N]
 *     [--fragments-per-append K] [--copy-data]
 * }</pre>
 *
 * The seed table the generated one links to is written next to it, at {@code <out>.seed}; keep it
 * (deleting it does not break hard links, but {@code --copy-data} tables do not need it at all).
 */
public final class GenerateTable {
  private GenerateTable() {}

  public static void main(String[] args) {
    TableShape shape = null;
    Path out = null;
    TableFiles.DataMode mode = TableFiles.DataMode.LINK;
    Integer versions = null;
    Integer fragments = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--shape" -> shape = TableShape.named(args[++i]);
        case "--out" -> out = Path.of(args[++i]).toAbsolutePath().normalize();
        case "--versions" -> versions = Integer.parseInt(args[++i]);
        case "--fragments-per-append" -> fragments = Integer.parseInt(args[++i]);
        case "--copy-data" -> mode = TableFiles.DataMode.COPY;
        default -> throw new IllegalArgumentException("unknown argument " + args[i]
            + "; usage: --shape large|huge|steady|wide|huge-steady --out DIR [--versions N] [--fragments-per-append K] [--copy-data]");
      }
    }
    if (shape == null || out == null) {
      throw new IllegalArgumentException("--shape and --out are required");
    }
    if (versions != null) {
      shape = shape.withVersions(versions);
    }
    if (fragments != null) {
      shape = shape.withFragmentsPerAppend(fragments);
    }
    System.out.println(generate(shape, out, mode));
  }

  /** Writes the seed next to {@code out}, then the table. */
  public static GeneratedTable generate(TableShape shape, Path out, TableFiles.DataMode mode) {
    SeedTable seed = SeedTable.write(seedPathOf(out));
    return TableGenerator.generate(seed, shape, out, mode, Clock.systemUTC());
  }

  public static Path seedPathOf(Path out) {
    return out.resolveSibling(out.getFileName() + ".seed");
  }
}
