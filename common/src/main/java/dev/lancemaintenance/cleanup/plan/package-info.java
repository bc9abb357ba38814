/**
 * Stage {@code plan} of {@link dev.lancemaintenance.cleanup.engine.CleanupRun}: lists a dataset's
 * manifests and the table's refs and fixes the retention facts, the manifest slices and the
 * listing tasks.
 *
 * <p>Rules of the package: runs on the driver and reads no manifest body; holds one small location
 * per version, never a data file path; everything it produces is serializable, for engines that
 * ship it.
 */
package dev.lancemaintenance.cleanup.plan;
