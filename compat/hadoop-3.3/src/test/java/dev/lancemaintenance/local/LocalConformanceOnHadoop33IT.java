package dev.lancemaintenance.local;

import dev.lancemaintenance.cleanup.ConformanceScope;

/**
 * The local engine meets the cleanup contract on the Hadoop 3.3 client (every read goes through
 * its {@code openFile}): common's {@link LocalCleanupConformanceIT} on the conformance subset of
 * issue 14 ({@link ConformanceScope#SUBSET}, set by this module's pom). The full set runs on the
 * 3.4 client in {@code testing}.
 */
class LocalConformanceOnHadoop33IT extends LocalCleanupConformanceIT {}
