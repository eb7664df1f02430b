"""Buying back in (Kaluki, RULES.md §10): a player eliminated in the last hand pays into the
pot and re-enters, before the next hand is entered.

A buy-in is kept as a seat change between two hands (``{"buy_in": {player, after_hand,
units, total}}`` in the session's ``seating``, which the next hand takes over), so a
correction of an earlier hand and a restore replay it after the hand it followed, and the
undo of that hand takes it back with it (services/hands.py). Until the next hand is entered a
buy-in can also be taken back on its own (``take_back_buy_in``: a tap by mistake), which the history
says.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Change, GameSession, Hand
from ledger.rules.base import State
from ledger.rules.errors import RuleError
from ledger.services.building import build_session_view
from ledger.services.errors import Conflict
from ledger.services.loading import apply_seating, check_version, load_session, session_game
from ledger.services.unit_of_work import record, write
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import SessionView

BOUGHT_IN = "player.bought_in"
TAKEN_BACK = "player.buy_in_taken_back"


def buy_in(
    group: GroupRef,
    session_id: int,
    player: str | None,
    request_id: str | None = None,
    version: int | None = None,
) -> SessionView:
    """``player`` buys back in. A ``request_id`` this session's buy-in was made with answers
    the session as it is (a double tap, a resend) instead of a second buy-in. Conflict once
    the next hand has been entered; a RuleError (field ``player``) where the player cannot
    buy in (still in, buy-ins off, not a player of the game)."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)  # another group's: NotFound first
        if not isinstance(player, str) or not player.strip():
            raise RuleError("Say who buys back in.", field="player")
        if request_id is not None and _made_with(row, request_id):
            return build_session_view(group, row)
        check_version(row, version)
        game = session_game(row)
        if not game.buys_in:
            raise RuleError(
                "Nobody buys back in to {game}: only Kaluki has buy-ins.",
                field="player",
                game=game.name,
            )
        if row.status != "open":
            raise Conflict("The game is over: nobody can buy back in.", field="player")
        state = State.from_dict(row.state)
        _check_in_time(state, player)
        bought = game.buy_in(state, player, row.options)
        made = bought.buy_in.to_dict()
        row.state = bought.state.to_dict()
        row.seating = [*row.seating, {"buy_in": made}]
        row.version += 1
        after: dict[str, Any] = {**made}
        if request_id is not None:
            after["request_id"] = request_id
        record(row, BOUGHT_IN, hand_number=row.hands_played, before=None, after=after)
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def take_back_buy_in(
    group: GroupRef, session_id: int, player: str | None, version: int | None = None
) -> SessionView:
    """``player``'s buy-in since the last hand is taken back: the units leave the pot and the
    player is eliminated again, the other seat changes since that hand stay made. Conflict
    once the next hand has been entered (the buy-in is then part of the game) or where the
    player has no buy-in since the last hand."""

    def work() -> SessionView:
        row = load_session(group, session_id, lock=True)
        check_version(row, version)
        key = (player or "").strip().casefold()
        made = next(
            (
                op
                for op in row.seating
                if "buy_in" in op and op["buy_in"]["player"].casefold() == key
            ),
            None,
        )
        if row.status != "open" or made is None or not key:
            raise Conflict(
                "{player} has no buy-in since hand {hand} to take back.",
                field="player",
                player=(player or "").strip(),
                hand=row.hands_played,
            )
        ops = [op for op in row.seating if op is not made]
        last = db.session.scalars(
            select(Hand.state_after).where(
                Hand.session_id == row.id, Hand.number == row.hands_played
            )
        ).one()
        state = apply_seating(session_game(row), State.from_dict(last), ops, row.options)
        row.state, row.seating = state.to_dict(), ops
        row.version += 1
        record(row, TAKEN_BACK, hand_number=row.hands_played, before=made["buy_in"], after=None)
        db.session.flush()
        return build_session_view(group, row)

    return write(work)


def _check_in_time(state: State, player: str) -> None:
    """A player eliminated before the last hand has missed their chance: Conflict (API.md:
    409 once the next hand has been entered)."""
    key = player.strip().casefold()
    name = next((p for p in state.eliminated if p.casefold() == key), None)
    if name is None or state.eliminated[name] == state.hands_played:
        return
    raise Conflict(
        "{player} cannot buy in now: {player} was eliminated in hand {hand} and hand {next} "
        "has been entered.",
        field="player",
        player=name,
        hand=state.eliminated[name],
        next=state.eliminated[name] + 1,
    )


def _made_with(row: GameSession, request_id: str) -> bool:
    """Whether a buy-in of this session was made with ``request_id``."""
    made = db.session.scalars(
        select(Change.after).where(Change.session_id == row.id, Change.kind == BOUGHT_IN)
    ).all()
    return any((a or {}).get("request_id") == request_id for a in made)
