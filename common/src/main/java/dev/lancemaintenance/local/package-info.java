/**
 * The local engine: {@link dev.lancemaintenance.cleanup.engine.CleanupRun} on a thread pool in one
 * JVM, with marks and listed files spilled to local disk by reference key; also the reference
 * the other engines are tested against, and how Spark cleans small tables in its driver.
 *
 * <p>Rules of the package: distribution only (threads, spills, semaphores); memory bounded by the
 * partitions and the sweep batch, never by the table's file count.
 */
package dev.lancemaintenance.local;
