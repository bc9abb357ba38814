package dev.lancemaintenance.runs;

import java.util.Locale;

/** Where a recorded run stands, as {@code history} shows it. */
public enum RunState {
  /** Started, no end recorded, and its run still holds the table's lease. */
  RUNNING,
  /** Started, no end recorded, and the lease it held is released or expired: the run died. */
  UNFINISHED,
  /** Ended with its result recorded. */
  FINISHED,
  /** Ended with an error, recorded in one line. */
  FAILED;

  /** The lower-case name shown in rows and records. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  static RunState ofLabel(String label) {
    return valueOf(label.toUpperCase(Locale.ROOT));
  }
}
