/**
 * Facts about Lance's layout that the cleanup rules rest on, each written once: {@link
 * dev.lancemaintenance.cleanup.rules.ManagedLayout} (the managed directories and the kind of file
 * cleanup may remove in each).
 *
 * <p>Rules of the package: pure functions of paths and records, no I/O; anything that decides
 * whether a file may go reads its facts from here rather than spelling a directory again.
 */
package dev.lancemaintenance.cleanup.rules;
