package dev.lancemaintenance.format;

import java.util.Objects;
import java.util.Optional;

/**
 * A tag: a name that keeps one version alive. Tags live at the table root even when they point into
 * a branch.
 *
 * @param branch the branch whose version it names; empty for the main line
 * @param manifestSize the size of the tagged manifest, as Lance recorded it
 */
public record Tag(String name, Optional<String> branch, long version, long manifestSize) {
  public Tag {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(branch, "branch");
  }
}
