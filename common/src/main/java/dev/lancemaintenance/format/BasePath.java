package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.Optional;

/**
 * Another root that files of a version may live under. Lance records the main table's root here in
 * branches and shallow clones, spelled as the writer spelled it: the SDK writes an absolute path,
 * LanceDB opened through a relative database path writes a relative one ({@code ./db/t.lance}).
 * Whether it is the table being cleaned is decided by {@code TableLocation#relativize}.
 *
 * @param id what {@code base_id} fields of data, deletion and index entries refer to
 * @param name for a shallow clone of a tag, the tag's name
 * @param isDatasetRoot true when files sit in {@code data/}, {@code _deletions/}, {@code _indices/}
 *     below the path; false when they sit directly in it
 * @param path an absolute path, a URI or a path relative to the writer's working directory
 */
public record BasePath(int id, Optional<String> name, boolean isDatasetRoot, String path) {
  public BasePath {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
  }
}
