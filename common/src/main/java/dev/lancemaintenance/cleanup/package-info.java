/**
 * The public cleanup API: {@link dev.lancemaintenance.cleanup.CleanupAction} (what every engine's
 * action accepts), the option catalogue {@link dev.lancemaintenance.cleanup.CleanupOption} that
 * every entry point parses through, the policy, settings and results.
 *
 * <p>Rules of the package: no engine code and no stage logic here; names are Lance's
 * ({@code cleanup_with_policy}) where Lance has the option; an argument that is unknown, misspelt,
 * NULL where it changes what is deleted, or of the wrong type fails before anything is read.
 */
package dev.lancemaintenance.cleanup;
