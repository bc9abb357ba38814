package dev.lancemaintenance.ledger;

import java.util.Objects;
import java.util.Optional;

/**
 * What reading a dataset's ledger found: a usable ledger, or why there is none. A run that gets no
 * usable ledger marks from the manifests themselves and writes a fresh one; it never guesses.
 *
 * @param headGeneration the highest commit number on the store (0 when there is none), usable or not:
 *     the next commit takes the number after it
 * @param commit the head commit, when the ledger is usable
 * @param state the folded ledger, when usable
 * @param problem why the ledger is not usable (absent, corrupt, another table's, ...), when it is not
 */
public record LedgerRead(long headGeneration, Optional<LedgerCommit> commit, Optional<LedgerState> state, Optional<String> problem) {
  public LedgerRead {
    Objects.requireNonNull(commit, "commit");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(problem, "problem");
    if (state.isPresent() == problem.isPresent() || state.isPresent() != commit.isPresent()) {
      throw new IllegalArgumentException("a ledger read is usable (commit and state) or has a problem");
    }
  }

  static LedgerRead usable(LedgerCommit commit, LedgerState state) {
    return new LedgerRead(commit.generation(), Optional.of(commit), Optional.of(state), Optional.empty());
  }

  static LedgerRead unusable(long headGeneration, String problem) {
    return new LedgerRead(headGeneration, Optional.empty(), Optional.empty(), Optional.of(problem));
  }

  public boolean isUsable() {
    return state.isPresent();
  }
}
