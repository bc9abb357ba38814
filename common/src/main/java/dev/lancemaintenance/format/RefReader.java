package dev.lancemaintenance.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lancemaintenance.storage.FileEntry;
import dev.lancemaintenance.storage.TablePaths;
import dev.lancemaintenance.storage.TableStorage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Reads the table's refs: {@code _refs/tags/*.json} and {@code _refs/branches/*.json}, always at the
 * table root. Keys are Lance's camelCase; keys we do not use are ignored so that newer writers'
 * additions do not break us. A ref that is not valid JSON, or lacks a key Lance requires, raises
 * {@link CorruptTableException}: an unreadable tag could be the one protecting a version.
 */
public final class RefReader {
  /** Where Lance keeps tags, at the table root even for tags on a branch. */
  public static final String TAGS_DIR = "_refs/tags";
  static final String BRANCHES_DIR = "_refs/branches";
  static final String REFS_DIR = "_refs";
  private static final String REF_SUFFIX = ".json";

  private RefReader() {}

  /** Every tag, ordered by name. */
  public static List<Tag> listTags(TableStorage storage) {
    return tags(storage, paths(storage, TAGS_DIR).iterator());
  }

  /** Every branch, ordered by name; {@code %2F} in a ref's file name stands for {@code /}. */
  public static List<Branch> listBranches(TableStorage storage) {
    return branches(storage, paths(storage, BRANCHES_DIR).iterator());
  }

  private static List<Tag> tags(TableStorage storage, Iterator<String> paths) {
    List<Tag> tags = readRefs(storage, paths, (name, ref) -> new Tag(
        name, ref.optionalText("branch"), ref.requiredLong("version"), ref.requiredLong("manifestSize")));
    tags.sort(Comparator.comparing(Tag::name));
    return tags;
  }

  private static List<Branch> branches(TableStorage storage, Iterator<String> paths) {
    List<Branch> branches = readRefs(storage, paths, (name, ref) -> new Branch(
        name, ref.optionalText("parentBranch"), ref.requiredLong("parentVersion"),
        ref.requiredLong("createAt"), ref.requiredLong("manifestSize")));
    branches.sort(Comparator.comparing(Branch::name));
    return branches;
  }

  /** The table's tags and branches, each ordered by name. */
  public record Refs(List<Tag> tags, List<Branch> branches) {}

  /**
   * Every tag and every branch, from one recursive listing of {@value #REFS_DIR}: on an object store
   * one request where {@link #listTags} and {@link #listBranches} make one each (three each for a
   * directory that is absent, as on most tables). The same refs as the two: files directly in
   * each directory, nothing deeper.
   */
  public static Refs readAll(TableStorage storage) {
    List<String> tagFiles = new ArrayList<>();
    List<String> branchFiles = new ArrayList<>();
    for (Iterator<FileEntry> it = storage.listFiles(REFS_DIR, true); it.hasNext(); ) {
      String path = it.next().path();
      String parent = TablePaths.parent(path);
      if (parent.equals(TAGS_DIR)) {
        tagFiles.add(path);
      } else if (parent.equals(BRANCHES_DIR)) {
        branchFiles.add(path);
      }
    }
    return new Refs(tags(storage, tagFiles.iterator()), branches(storage, branchFiles.iterator()));
  }

  private static List<String> paths(TableStorage storage, String dir) {
    List<String> paths = new ArrayList<>();
    storage.listFiles(dir, false).forEachRemaining(file -> paths.add(file.path()));
    return paths;
  }

  private static <T> List<T> readRefs(TableStorage storage, Iterator<String> paths, BiFunction<String, Ref, T> decode) {
    List<T> refs = new ArrayList<>();
    while (paths.hasNext()) {
      String path = paths.next();
      String fileName = TablePaths.fileName(path);
      if (fileName.endsWith(REF_SUFFIX)) {
        String name = percentDecode(fileName.substring(0, fileName.length() - REF_SUFFIX.length()));
        refs.add(decode.apply(name, Ref.read(storage, path)));
      }
    }
    return refs;
  }

  /** Undoes the object store's percent-encoding of ref names (Lance writes {@code a/b} as {@code a%2Fb}). */
  static String percentDecode(String encoded) {
    if (encoded.indexOf('%') < 0) {
      return encoded;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    for (int i = 0; i < encoded.length(); i++) {
      char c = encoded.charAt(i);
      int high = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 1), 16) : -1;
      int low = i + 2 < encoded.length() ? Character.digit(encoded.charAt(i + 2), 16) : -1;
      if (c == '%' && high >= 0 && low >= 0) {
        bytes.write(high << 4 | low);
        i += 2;
      } else {
        bytes.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
      }
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /** One parsed ref file, with accessors that fail naming the file and the key. */
  private record Ref(String table, String path, JsonNode root) {
    /** A ref a writer is moving is read again until whole ({@link RewrittenFile}). */
    static Ref read(TableStorage storage, String path) {
      return RewrittenFile.read(path, () -> parse(storage, path));
    }

    private static Ref parse(TableStorage storage, String path) {
      String table = storage.location().toString();
      JsonNode root;
      try {
        root = Mapper.JSON.readTree(storage.readFully(path));
      } catch (IOException e) {
        // Jackson's own message adds the source on a second line; errors here are one line.
        String problem = e instanceof JsonProcessingException json ? json.getOriginalMessage() : e.getMessage();
        throw new CorruptTableException(table, path, "ref is not valid JSON: " + problem, e);
      }
      if (root == null || !root.isObject()) {
        throw new CorruptTableException(table, path, "ref is not a JSON object");
      }
      return new Ref(table, path, root);
    }

    long requiredLong(String key) {
      JsonNode value = root.get(key);
      if (value == null || !value.canConvertToExactIntegral() || value.asLong() < 0) {
        throw new CorruptTableException(table, path, "ref has no non-negative integer \"" + key + "\"");
      }
      return value.asLong();
    }

    Optional<String> optionalText(String key) {
      JsonNode value = root.get(key);
      if (value == null || value.isNull()) {
        return Optional.empty();
      }
      if (!value.isTextual()) {
        throw new CorruptTableException(table, path, "ref key \"" + key + "\" is not a string or null");
      }
      return Optional.of(value.asText());
    }
  }

  /**
   * Made on first use: a cold command-line run on a table without refs (or hint) never pays for
   * Jackson's databind, some 300 classes.
   */
  private static final class Mapper {
    static final ObjectMapper JSON = new ObjectMapper();
  }
}
