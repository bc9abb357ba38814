package dev.lancemaintenance.cleanup;

import java.util.Locale;

/**
 * How a cleanup learns which files the versions of the dataset it cleans reference: the options
 * {@code mode} ({@link #FULL} or {@link #INCREMENTAL}) and {@code verify} ({@link #VERIFY}) of
 * {@link CleanupOption}. Every mode gives the same marks (docs/cleanup-semantics.md, "Incremental
 * marking"); they differ in what they read and in what the driver holds.
 */
public enum MarkMode {
  /**
   * Decode every listed manifest, in parallel slices. The default: it holds no more than one slice
   * per task anywhere, whereas the ledger's fold lives on the driver (one entry per reference
   * range of the retained versions), which not every driver of a huge table can hold.
   */
  FULL,
  /**
   * Decode only what the maintenance ledger cannot answer: manifests newer than its end, or all of
   * them when it is absent or unusable; then record what was learnt (never in a dry run). Exactly
   * the marks of {@link #FULL}.
   */
  INCREMENTAL,
  /**
   * Both, and refuse the run before any delete when they differ in one mark, one expired manifest
   * or one retention fact. For tests and for gaining trust in the ledger on a real table; holds both
   * mark sets on the driver.
   */
  VERIFY;

  /** The value of the {@code mode} option: {@code full} or {@code incremental}, any case; the error names the option. */
  public static MarkMode ofOption(String text) {
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "full" -> FULL;
      case "incremental" -> INCREMENTAL;
      default -> throw new IllegalArgumentException(
          "Cleanup argument 'mode' takes 'full' or 'incremental', not '" + text + "' (verify => true checks one against the other)");
    };
  }
}
