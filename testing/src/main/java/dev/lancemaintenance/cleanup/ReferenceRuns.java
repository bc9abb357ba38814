package dev.lancemaintenance.cleanup;

import dev.lancemaintenance.testing.ConformanceScenarios;
import dev.lancemaintenance.testing.OracleOutcome;
import dev.lancemaintenance.testing.OracleStats;
import dev.lancemaintenance.testing.PristineTable;
import dev.lancemaintenance.testing.ReadBack;
import dev.lancemaintenance.testing.Scenario;
import dev.lancemaintenance.testing.TableContent;
import dev.lancemaintenance.testing.TableSnapshot;
import dev.lancemaintenance.testing.TableTwins;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The engine-independent half of the cleanup contract, computed once per build: each scenario's
 * table as the SDK wrote it (kept pristine), its policies, and per policy what the SDK's cleanup
 * did (counters or refusal), the files it left with their digests, and that every manifest it left
 * read back in full as before. The local engine, Spark 4.1, Flink 2.2 and every subset line then
 * run only their own cleanup on the same table at the same path.
 *
 * <p>The store lives in the directory {@value #PROPERTY} names (the root pom points it at the
 * reactor's {@code target/conformance-references}); without it, in the test's own directory, so a
 * class run alone computes everything itself. Tables are reused with their outcomes, never
 * rewritten: Lance names files at random. An entry is keyed by a digest of the testing module's
 * classes and the SDK jar, so a changed scenario or SDK is written afresh; it is written
 * completely before its marker file, so a crashed run is rewritten; and it is reused for at most
 * {@link #REUSE_FOR}: the cutoffs are stored instants, and the one clock rule left, Lance's 7-day
 * line for unverified files, cannot move within an hour for files whose mtimes are minutes, one
 * day or thirty days old ({@link ConformanceScenarios#RECENT}, {@link ConformanceScenarios#OLD}).
 * One build at a time uses it: a file lock serialises test classes of concurrent builds.
 */
final class ReferenceRuns implements AutoCloseable {
  /** The system property naming the directory shared by the modules of one build. */
  static final String PROPERTY = "lance.maintenance.conformance.references";

  static final Duration REUSE_FOR = Duration.ofHours(1);

  private static final String MARKER = "scenario.properties";

  private final Path root;
  private final FileChannel lockChannel;
  private final FileLock lock;

  private ReferenceRuns(Path root, FileChannel lockChannel, FileLock lock) {
    this.root = root;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /** The store of this build (or of {@code fallback} when no build set one), locked for this JVM. */
  static ReferenceRuns open(Path fallback) {
    return at(Optional.ofNullable(System.getProperty(PROPERTY)).filter(s -> !s.isBlank()).map(Path::of).orElse(fallback));
  }

  /** The store under {@code base}, locked for this JVM. */
  static ReferenceRuns at(Path base) {
    Path root = base.toAbsolutePath().normalize().resolve(CodeDigest.ofTestingModule());
    try {
      Files.createDirectories(root);
      FileChannel channel = FileChannel.open(root.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      return new ReferenceRuns(root, channel, channel.lock());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot open the conformance references at " + root, e);
    }
  }

  /** A built scenario: its pristine table, its read-back as built, and every policy it is cleaned with. */
  record Prepared(String key, Path dir, PristineTable pristine, TableSnapshot before, List<ContractPolicy> policies) {}

  /** What the SDK's cleanup did with one policy, and the files it left (table-relative name to digest). */
  record Reference(OracleOutcome outcome, SortedMap<String, String> filesLeft) {
    TreeSet<String> files() {
      return new TreeSet<>(filesLeft.keySet());
    }
  }

  /**
   * The scenario {@code key}, built by {@code build} unless this build stored it already;
   * {@code policies} gives every policy of a freshly built scenario (all of them, whatever the
   * scope: a later module may run more).
   */
  Prepared scenario(String key, Function<Path, Scenario> build, Function<Scenario, List<ContractPolicy>> policies) {
    Path dir = root.resolve(key);
    Optional<Prepared> stored = load(key, dir);
    if (stored.isPresent()) {
      return stored.get();
    }
    TableTwins.deleteRecursively(dir);
    Scenario scenario = build.apply(dir.resolve("tables"));
    PristineTable pristine = PristineTable.keep(scenario.table().root(), dir.resolve("pristine"));
    Prepared prepared = new Prepared(key, dir, pristine, ReadBack.snapshot(pristine.table()), policies.apply(scenario));
    store(prepared);
    return prepared;
  }

  /** The SDK's side of case {@code index} of {@code scenario}: stored, or run now by {@code sdk} and stored. */
  Reference reference(Prepared scenario, int index, Supplier<Reference> sdk) {
    Path file = scenario.dir().resolve("references").resolve(index + ".properties");
    if (Files.exists(file)) {
      return decodeReference(read(file));
    }
    Reference reference = sdk.get();
    write(file, encodeReference(reference));
    return reference;
  }

  /** Table-relative name to digest of each of {@code files} under {@code table}. */
  static SortedMap<String, String> digests(Path table, TreeSet<String> files) {
    SortedMap<String, String> digests = new TreeMap<>();
    for (String file : files) {
      digests.put(file, FileDigest.of(table.resolve(file)));
    }
    return digests;
  }

  @Override
  public void close() {
    try (lockChannel) {
      lock.release();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot release the lock of " + root, e);
    }
  }

  private Optional<Prepared> load(String key, Path dir) {
    Path marker = dir.resolve(MARKER);
    if (!Files.exists(marker)) {
      return Optional.empty();
    }
    Properties p = read(marker);
    Instant written = Instant.parse(p.getProperty("written"));
    if (written.plus(REUSE_FOR).isBefore(Instant.now())) {
      return Optional.empty();
    }
    Path table = Path.of(p.getProperty("table"));
    PristineTable pristine = new PristineTable(table, dir.resolve("pristine"), PristineTable.filesOf(dir.resolve("pristine")));
    SortedMap<String, TableContent> before = new TreeMap<>();
    List<ContractPolicy> policies = new ArrayList<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("before.")) {
        before.put(name.substring("before.".length()), decodeContent(p.getProperty(name)));
      }
    }
    int count = Integer.parseInt(p.getProperty("policies"));
    for (int i = 0; i < count; i++) {
      policies.add(decodePolicy(p, "policy." + i + "."));
    }
    return Optional.of(new Prepared(key, dir, pristine, new TableSnapshot(before), policies));
  }

  private static void store(Prepared prepared) {
    Properties p = new Properties();
    p.setProperty("written", Instant.now().toString());
    p.setProperty("table", prepared.pristine().table().toString());
    prepared.before().entries().forEach((key, content) -> p.setProperty("before." + key, encodeContent(content)));
    p.setProperty("policies", String.valueOf(prepared.policies().size()));
    for (int i = 0; i < prepared.policies().size(); i++) {
      encodePolicy(prepared.policies().get(i), p, "policy." + i + ".");
    }
    write(prepared.dir().resolve(MARKER), p);
  }

  private static void encodePolicy(ContractPolicy policy, Properties p, String prefix) {
    p.setProperty(prefix + "label", policy.label());
    p.setProperty(prefix + "beforeTimestamp", policy.beforeTimestamp().toString());
    policy.beforeVersion().ifPresent(v -> p.setProperty(prefix + "beforeVersion", String.valueOf(v)));
    p.setProperty(prefix + "deleteUnverified", String.valueOf(policy.deleteUnverified()));
    p.setProperty(prefix + "errorIfTaggedOldVersions", String.valueOf(policy.errorIfTaggedOldVersions()));
    policy.branch().ifPresent(b -> p.setProperty(prefix + "branch", b));
    p.setProperty(prefix + "cleanReferencedBranches", String.valueOf(policy.cleanReferencedBranches()));
  }

  private static ContractPolicy decodePolicy(Properties p, String prefix) {
    String version = p.getProperty(prefix + "beforeVersion");
    return new ContractPolicy(
        p.getProperty(prefix + "label"),
        Instant.parse(p.getProperty(prefix + "beforeTimestamp")),
        version == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(version)),
        Boolean.parseBoolean(p.getProperty(prefix + "deleteUnverified")),
        Boolean.parseBoolean(p.getProperty(prefix + "errorIfTaggedOldVersions")),
        Optional.ofNullable(p.getProperty(prefix + "branch")),
        Boolean.parseBoolean(p.getProperty(prefix + "cleanReferencedBranches")));
  }

  private static String encodeContent(TableContent content) {
    return content instanceof TableContent.Readable r
        ? "readable " + r.rows() + " " + r.checksum()
        : "unreadable " + ((TableContent.Unreadable) content).reason();
  }

  private static TableContent decodeContent(String text) {
    if (text.startsWith("unreadable ")) {
      return new TableContent.Unreadable(text.substring("unreadable ".length()));
    }
    String[] parts = text.split(" ");
    return new TableContent.Readable(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
  }

  private static Properties encodeReference(Reference reference) {
    Properties p = new Properties();
    if (reference.outcome() instanceof OracleOutcome.Failed failed) {
      p.setProperty("refused", failed.message());
    } else {
      OracleStats s = reference.outcome().stats();
      p.setProperty("stats", s.bytesRemoved() + " " + s.oldVersions() + " " + s.dataFilesRemoved() + " "
          + s.transactionFilesRemoved() + " " + s.indexFilesRemoved() + " " + s.deletionFilesRemoved());
    }
    reference.filesLeft().forEach((file, digest) -> p.setProperty("file." + file, digest));
    return p;
  }

  private static Reference decodeReference(Properties p) {
    OracleOutcome outcome;
    if (p.containsKey("refused")) {
      outcome = new OracleOutcome.Failed(p.getProperty("refused"));
    } else {
      long[] s = Arrays.stream(p.getProperty("stats").split(" ")).mapToLong(Long::parseLong).toArray();
      outcome = new OracleOutcome.Removed(new OracleStats(s[0], s[1], s[2], s[3], s[4], s[5]));
    }
    SortedMap<String, String> files = new TreeMap<>();
    for (String name : p.stringPropertyNames()) {
      if (name.startsWith("file.")) {
        files.put(name.substring("file.".length()), p.getProperty(name));
      }
    }
    return new Reference(outcome, files);
  }

  private static Properties read(Path file) {
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
    return p;
  }

  /** Writes aside, then renames: a reader sees the whole file or none. */
  private static void write(Path file, Properties p) {
    Path partial = file.resolveSibling(file.getFileName() + ".partial");
    try {
      Files.createDirectories(file.getParent());
      try (OutputStream out = Files.newOutputStream(partial)) {
        p.store(out, null);
      }
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
