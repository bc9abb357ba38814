package dev.lancemaintenance.storage;

import java.io.Serializable;

/**
 * Opens a {@link TableStorage} wherever a task runs. Engines ship the factory (a serializable
 * value), never a live client; tests ship factories that wrap storage with faults or counters.
 */
@FunctionalInterface
public interface TableStorageFactory extends Serializable {
  TableStorage open(TableLocation location);
}
