package dev.lancemaintenance.report;

import java.io.Serializable;

/**
 * One version of the dataset as the report's mark read it: what the driver needs to place the
 * cleanup's cut-offs for every window (the same reduction the cleanup's mark makes, {@link
 * dev.lancemaintenance.cleanup.stage.MarkSummary#ofVersion}). One per version, as the plan holds one
 * manifest location per version; never a data file.
 *
 * @param version the version number
 * @param timestampNanos its manifest's timestamp
 * @param manifestBytes the size of its manifest
 */
public record VersionStamp(long version, long timestampNanos, long manifestBytes) implements Serializable {}
