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


def winnings(score: int, brought_back: int) -> int:
    """What a player won or lost on a money night, in units (RULES.md §2 "A night's winnings
    leave the kept pot out"): their balance there, which started at minus the pot they
    brought back, without that pot. The pot they keep at the end is not in the balance."""
    return score + brought_back


def to_settle(score: int, kept: int) -> int:
    """What the night's settle-up settles for a player, in units: their balance, and the pot
    they keep at the end paid to them (RULES.md §2 "The pot keeper")."""
    return score + kept


def settled_winnings(settled: int, kept: int, brought_back: int) -> int:
    """What a player won or lost on a money night, from what its settle-up settles for them
    (``to_settle``): without the pot they keep at the end, nor the one they brought back."""
    return winnings(settled - kept, brought_back)
