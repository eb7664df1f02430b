"""The pot keeper (RULES.md §2): a carried pot is real money that one player takes home.

The session the pot opens starts with its keeper owing it: their balance there is minus the
pot, so that session's balances and pot add up to zero on their own, as the session that
carried the pot on settles it to the keeper.
"""

from __future__ import annotations

from dataclasses import replace

from ledger.rules.base import State
from ledger.rules.errors import RuleError


def brought_by(state: State, keeper: str) -> State:
    """A session's first state with ``keeper`` bringing back the pot it opens with."""
    if keeper not in state.seats:
        raise RuleError(
            "{player}, who keeps the pot, is not at this table to bring it.",
            field="carried_in_keeper",
            player=keeper,
        )
    if not state.pot or state.hands_played:
        raise RuleError("Only a pot a session opens with is brought by its keeper.")
    scores = dict(state.scores)
    scores[keeper] = scores.get(keeper, 0) - state.pot
    return replace(state, scores=scores)
