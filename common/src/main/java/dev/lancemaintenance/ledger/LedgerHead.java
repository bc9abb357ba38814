package dev.lancemaintenance.ledger;

import java.util.Optional;

/**
 * The head commit of a dataset's ledger, found in one listing of its directory and read: what an
 * append without a fold continues ({@link Ledger#appendWithoutFold}). Read by {@link Ledger#head},
 * on the read-ahead's thread beside the plan for a run that decides from the key snapshot ({@link
 * LedgerReadAhead#startUnlessKeySnapshot}), so that the append at the run's end starts with its
 * segment's write instead of a round trip for the commit.
 *
 * <p>Exact to read ahead: the generation is the listing's head, which the run took beside its
 * plan either way, and a commit file is created once with create-if-absent and never changed, so
 * its bytes are the same whenever they are read. A commit written after the listing by another
 * writer (an accident under the lease) holds a generation above the head, and the append's create
 * of {@code head + 1} loses to it or to the one that writer created before it, as it did when the
 * head was read at the append ({@code LedgerAppendWithoutFoldTest}).
 *
 * @param listed the listing the head was found in, for the prune after the append
 * @param commit the head commit, checked to be of its generation, this table and dataset; empty
 *     with {@code problem} when there is none or it is not usable
 * @param problem why the head cannot be continued, when it cannot
 */
record LedgerHead(LedgerDirectory listed, Optional<LedgerCommit> commit, Optional<String> problem) {
  LedgerHead {
    if (commit.isPresent() == problem.isPresent()) {
      throw new IllegalArgumentException("a head is a commit or a problem");
    }
  }

  static LedgerHead of(LedgerDirectory listed, LedgerCommit commit) {
    return new LedgerHead(listed, Optional.of(commit), Optional.empty());
  }

  static LedgerHead unusable(LedgerDirectory listed, String problem) {
    return new LedgerHead(listed, Optional.empty(), Optional.of(problem));
  }
}
