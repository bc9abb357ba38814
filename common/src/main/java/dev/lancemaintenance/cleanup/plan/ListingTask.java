package dev.lancemaintenance.cleanup.plan;

import java.io.Serializable;
import java.util.Objects;

/** One directory the list stage walks for candidate files. */
public record ListingTask(String dir, boolean recursive) implements Serializable {
  public ListingTask {
    Objects.requireNonNull(dir, "dir");
  }
}
