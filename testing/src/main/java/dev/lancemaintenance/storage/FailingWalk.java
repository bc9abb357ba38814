package dev.lancemaintenance.storage;

import java.util.Iterator;

/** A walk that breaks midway: for tests of what a listing does when its walk fails after some names. */
public final class FailingWalk {
  private FailingWalk() {}

  /** The first {@code names} names of {@code walk}, then {@code failure} thrown where the next is asked for. */
  public static Iterator<FileEntry> after(int names, RuntimeException failure, Iterator<FileEntry> walk) {
    return new Iterator<>() {
      private int given;

      @Override
      public boolean hasNext() {
        if (given == names) {
          throw failure;
        }
        return walk.hasNext();
      }

      @Override
      public FileEntry next() {
        given++;
        return walk.next();
      }
    };
  }
}
