package dev.lancemaintenance.cleanup;

/**
 * Whether a run deletes. Both modes run the same stages up to the decision; a dry run replaces the
 * sweep by an emitter of the files that would go, so what it lists is exactly what a real run with
 * the same plan deletes.
 */
public enum CleanupMode {
  EXECUTE,
  DRY_RUN
}
