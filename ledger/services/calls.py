"""A game's own calls between hands (``Game.calls``: Boerenbridge's bids, saved before a round
is played), made on the session's state.

A call is kept as a seat change between two hands (``{"call": name, "body": …}`` in the
session's ``seating``, which the next hand takes over), so a correction of an earlier hand
and a restore replay it where it was made, and the undo of the hand after it takes it back
with it, as a buy-in is (services/buy_ins.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.extensions import db
from ledger.rules.base import State
from ledger.services.building import build_session_view
from ledger.services.errors import Conflict, NotFound
from ledger.services.loading import check_version, load_session, session_game
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import SessionView

CALLED = "session.called"
# What a request carries beside the call's own body: not kept with it.
_ASIDE = frozenset({"version", "request_id"})


def game_call(
    group: GroupRef,
    session_id: int,
    name: str,
    body: Mapping[str, Any],
    version: int | None = None,
) -> SessionView:
    """Make the game's call ``name`` with ``body`` on the session between hands. NotFound
    for a call the game does not have; Conflict once the game is over or on a stale
    ``version``; a RuleError (or the game's ShapeError) for a body the game refuses."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)  # another group's: NotFound first
        game = session_game(row)
        if name not in game.calls:
            raise NotFound("There is no {call} to make in {game}.", call=name, game=game.name)
        check_version(row, version)
        if row.status != "open":
            raise Conflict("The game is over: nothing more can be saved for it.")
        kept = {k: v for k, v in body.items() if k not in _ASIDE}
        state = game.call(name, State.from_dict(row.state), kept, row.options)
        row.state = state.to_dict()
        row.seating = [*row.seating, {"call": name, "body": kept}]
        row.version += 1
        record(row, CALLED, hand_number=row.hands_played, before=None, after={"call": name, **kept})
        db.session.flush()
        return build_session_view(group, row)

    return write(work)
