package dev.lancemaintenance.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lancemaintenance.format.ManifestNaming;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;
import org.lance.Ref;

/**
 * The invariant every cleanup run must leave behind (issue 12): every manifest still on disk, of
 * the main line and of every branch, reads back in full. It goes by the files, not by what a
 * library lists, so a manifest that survived while a file it names went is always caught.
 */
public final class KeptManifests {
  private static final String VERSIONS = "_versions";
  private static final String TREE = "tree";

  private KeptManifests() {}

  /** A version of the main line ({@code branch} empty) or of a branch. */
  public record VersionRef(Optional<String> branch, long version) {
    /** The key {@link ReadBack} and {@link TableSnapshot} use: {@code main/v3}, {@code branch/b1/v5}. */
    public String key() {
      return branch.map(b -> "branch/" + b).orElse("main") + "/v" + version;
    }

    Ref toSdkRef() {
      return branch.map(b -> Ref.ofBranch(b, version)).orElseGet(() -> Ref.ofMain(version));
    }
  }

  /** Every manifest file below {@code table}: {@code _versions/} and each {@code tree/<branch>/_versions/}. */
  public static List<VersionRef> onDisk(Path table) {
    List<VersionRef> refs = new ArrayList<>(manifestsIn(table.resolve(VERSIONS), Optional.empty()));
    Path tree = table.resolve(TREE);
    if (Files.isDirectory(tree)) {
      try (Stream<Path> dirs = Files.walk(tree)) {
        for (Path versions : dirs.filter(d -> d.getFileName().toString().equals(VERSIONS) && Files.isDirectory(d)).toList()) {
          String branch = tree.relativize(versions.getParent()).toString().replace('\\', '/');
          refs.addAll(manifestsIn(versions, Optional.of(branch)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot list " + tree, e);
      }
    }
    return refs;
  }

  /**
   * Asserts that every manifest on disk reads back in full through the official Java SDK and
   * returns what each read as.
   */
  public static TableSnapshot assertEveryManifestReadsBack(Path table) {
    return assertEveryManifestReadsBack(table, refs -> readWithSdk(table, refs));
  }

  /** What each of {@code refs} reads as through the official Java SDK. */
  public static TableSnapshot readWithSdk(Path table, List<VersionRef> refs) {
    SortedMap<String, TableContent> contents = new TreeMap<>();
    for (VersionRef ref : refs) {
      contents.put(ref.key(), ReadBack.read(table, ref.toSdkRef()));
    }
    return new TableSnapshot(contents);
  }

  /** The same with another reader (LanceDB's, for tables whose base paths only its working directory resolves). */
  public static TableSnapshot assertEveryManifestReadsBack(Path table, Function<List<VersionRef>, TableSnapshot> reader) {
    List<VersionRef> refs = onDisk(table);
    TableSnapshot read = reader.apply(refs);
    assertThat(read.entries().keySet())
        .as("every manifest on disk of %s was read", table)
        .containsExactlyInAnyOrderElementsOf(refs.stream().map(VersionRef::key).toList());
    assertThat(read.unreadable())
        .as("manifests left on disk of %s that no longer read in full (a kept manifest lost a file it references)", table)
        .isEmpty();
    return read;
  }

  private static List<VersionRef> manifestsIn(Path versions, Optional<String> branch) {
    if (!Files.isDirectory(versions)) {
      return List.of();
    }
    List<VersionRef> refs = new ArrayList<>();
    try (Stream<Path> files = Files.list(versions)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".manifest")) {
          continue;
        }
        OptionalLong version = ManifestNaming.of(name).parseVersion(name);
        version.ifPresent(v -> refs.add(new VersionRef(branch, v)));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + versions, e);
    }
    return refs;
  }
}
