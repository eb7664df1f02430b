"""A player's rename in a night: what is stored now, and a state brought back from its history.

The engine keys everything by name, so a rename rewrites every state, start, seating and
finish the night keeps (``rename_in_nights``) and leaves its history (changes) as it was, with
a ``player.renamed`` line. A state taken back out of that history (a finished night reopened,
services/plans.py) is as old as its line: ``renamed_since`` follows it through every rename
the night recorded after that line, with the very rewrite the rename gave the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Change, GameSession, Hand
from ledger.rules.codecs import (
    renamed_entry,
    renamed_finish,
    renamed_outcome,
    renamed_seating,
    renamed_state,
)
from ledger.services.unit_of_work import record

RENAMED = "player.renamed"


def rename_in_nights(sessions: Sequence[GameSession], old: str, new: str) -> None:
    """The nights ``sessions`` with the player ``old`` called ``new`` in all they keep (their
    hands too: one query), each a new version with the line of history that says so."""
    for s in sessions:
        s.state = renamed_state(s.state, old, new)
        s.start_state = renamed_state(s.start_state, old, new)
        s.seating = renamed_seating(s.seating, old, new)
        if s.finish:
            s.finish = renamed_finish(s.finish, old, new)
        s.version += 1
        record(s, RENAMED, before={"player": old}, after={"player": new})
    hands = select(Hand).where(Hand.session_id.in_([s.id for s in sessions]))
    for h in db.session.scalars(hands):
        h.state_after = renamed_state(h.state_after, old, new)
        h.outcome = renamed_outcome(h.outcome, old, new)
        h.entry = renamed_entry(h.entry, old, new)
        h.seating = renamed_seating(h.seating, old, new)


def renamed_since(session_id: int, state: dict[str, Any], line: Change) -> dict[str, Any]:
    """``state``, kept by the night's history ``line``, with the players renamed since that
    line (one after the other, in their order) called as they are now."""
    renames = db.session.scalars(
        select(Change)
        .where(Change.session_id == session_id, Change.kind == RENAMED, Change.id > line.id)
        .order_by(Change.id)
    )
    for r in renames:  # a rename's line always says who was renamed, and to what
        assert r.before is not None and r.after is not None, r.id
        state = renamed_state(state, r.before["player"], r.after["player"])
    return state
