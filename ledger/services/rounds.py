"""Rounds of drinks and food (RULES.md §6c, API.md "Rounds"): recording one, changing it,
taking it back, listing a night's.

- ``add_round``: somebody paid for a round. A ``request_id`` already used in the night
  answers that round again (``created`` False), so a double tap or a retry records one; a
  resend of a round taken back since records nothing (Conflict).
- ``change_round`` and ``delete_round``: while the night is open (a finished night's rounds
  change after it is opened again: Conflict).
- ``list_rounds``: a night's rounds (its answers carry them: services/building.py; its
  settle-up nets them with the game's money: services/night.py).

Rounds keep their players by id, so a player renamed keeps their rounds. Every change raises
the night's version (every phone's page follows) and leaves a line of history saying who
added, changed or took back what.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Change, GameSession, Player, utcnow
from ledger.models import Round as RoundRow
from ledger.rules import rounds as rules
from ledger.rules.base import State
from ledger.rules.money import minor_units
from ledger.services.building import (
    cents_amount,
    night_currency,
    ordered_players,
    round_as_rule,
    round_player_names,
    round_view,
    round_views,
)
from ledger.services.errors import Conflict, NotFound
from ledger.services.loading import load_session
from ledger.services.unit_of_work import record, write
from ledger.services.views.base import timestamp
from ledger.services.views.groups import GroupRef
from ledger.services.views.rounds import AddedRound, RoundView


def list_rounds(group: GroupRef, session_id: int) -> list[RoundView]:
    """The night's rounds, oldest first."""
    return list(round_views(load_session(group, session_id)))


def add_round(
    group: GroupRef,
    session_id: int,
    typed: Mapping[str, Any],
    request_id: str | None = None,
) -> AddedRound:
    """Record a round as typed (``typed``: ``what``, ``amount``, ``paid_by``, ``for``,
    ``shares``; RuleError naming the field, every mistake at once)."""

    def work() -> AddedRound:
        row = load_session(group, session_id, lock=True)
        if request_id is not None:
            earlier = db.session.scalar(
                select(RoundRow).where(
                    RoundRow.session_id == row.id, RoundRow.request_id == request_id
                )
            )
            if earlier is not None:
                return AddedRound(_one_view(row, earlier), created=False)
            _check_not_taken_back(row, request_id)
        _check_open(row)
        made = _read(row, typed)
        ids = _player_ids(row.id)
        kept = RoundRow(session_id=row.id, request_id=request_id, at=utcnow())
        _store(kept, made, ids)
        db.session.add(kept)
        row.version += 1
        record(row, "round.added", before=None, after=_said(made, row, request_id))
        db.session.flush()
        return AddedRound(_one_view(row, kept), created=True)

    return write(work)


def change_round(
    group: GroupRef, session_id: int, round_id: int, typed: Mapping[str, Any]
) -> RoundView:
    """The round ``round_id`` as typed now, while the night is open."""

    def work() -> RoundView:
        row = load_session(group, session_id, lock=True)
        kept = _find(row, round_id)
        _check_open(row)
        made = _read(row, typed)
        before = _said(round_as_rule(kept, round_player_names(row.id)), row, kept.request_id)
        _store(kept, made, _player_ids(row.id))
        after = _said(made, row, kept.request_id)
        if after != before:
            row.version += 1
            record(row, "round.changed", before=before, after=after)
        db.session.flush()
        return _one_view(row, kept)

    return write(work)


def delete_round(group: GroupRef, session_id: int, round_id: int) -> RoundView:
    """Take the round ``round_id`` back, while the night is open."""

    def work() -> RoundView:
        row = load_session(group, session_id, lock=True)
        kept = _find(row, round_id)
        _check_open(row)
        view = _one_view(row, kept)
        before = _said(round_as_rule(kept, round_player_names(row.id)), row, kept.request_id)
        db.session.delete(kept)
        row.version += 1
        record(row, "round.deleted", before=before, after=None)
        db.session.flush()
        return view

    return write(work)


def _player_ids(session_id: int) -> dict[str, int]:
    return {name: player_id for player_id, name in round_player_names(session_id).items()}


def _one_view(row: GameSession, kept: RoundRow) -> RoundView:
    return round_view(kept, round_player_names(row.id), night_currency(row.options))


def _read(row: GameSession, typed: Mapping[str, Any]) -> rules.Round:
    """The round as typed, checked against the night's players in seating order."""
    return rules.read_round(
        ordered_players(State.from_dict(row.state)),
        paid_by=typed.get("paid_by"),
        people=typed.get("for"),
        amount=typed.get("amount"),
        currency=night_currency(row.options),
        shares=typed.get("shares"),
        what=typed.get("what"),
    )


def _store(kept: RoundRow, made: rules.Round, ids: Mapping[str, int]) -> None:
    kept.what = made.what
    kept.cents = made.cents
    kept.payer_id = ids[made.paid_by]
    kept.shares = [[ids[p], share] for p, share in made.shares.items()]


def _said(made: rules.Round, row: GameSession, request_id: str | None) -> dict[str, Any]:
    """A round as its line of history keeps it: by names, the amount in the currency."""
    currency = night_currency(row.options)
    said: dict[str, Any] = {
        "what": made.what,
        "amount": str(cents_amount(made.cents, currency)),
        "paid_by": made.paid_by,
        "for": list(made.shares),
        "shares": dict(made.shares),
    }
    if request_id is not None:
        said["request_id"] = request_id
    return said


def _find(row: GameSession, round_id: int) -> RoundRow:
    kept = db.session.scalar(
        select(RoundRow).where(RoundRow.id == round_id, RoundRow.session_id == row.id)
    )
    if kept is None:
        raise NotFound("There is no round {id} in this night.", id=round_id)
    return kept


def _check_open(row: GameSession) -> None:
    if row.status != "open":
        raise Conflict("The night is finished: open it again to change its rounds.")


def _check_not_taken_back(row: GameSession, request_id: str) -> None:
    """A resend of a round recorded and then taken back records nothing new: its line of
    history keeps the request id."""
    taken = db.session.scalar(
        select(Change.at)
        .where(
            Change.session_id == row.id,
            Change.kind == "round.deleted",
            Change.before["request_id"].as_string() == request_id,
        )
        .limit(1)
    )
    if taken is not None:
        raise Conflict(
            "This round was recorded and then taken back ({at}); nothing new was recorded.",
            field="request_id",
            at=str(timestamp(taken)),
        )


# ---- the stats' figures (RULES.md §6c: rounds paid and owed, never winnings) ----------------


def rounds_by_session(group: GroupRef, where: list[Any]) -> dict[int, dict[str, tuple[int, int]]]:
    """Each session's rounds (of the sessions ``where`` picks) as each player's (paid, owed)
    in cents, for the stats and the player pages: two queries."""
    names = dict(
        db.session.execute(select(Player.id, Player.name).where(Player.group_id == group.id)).all()
    )
    found = db.session.execute(
        select(RoundRow.session_id, RoundRow.payer_id, RoundRow.cents, RoundRow.shares)
        .join(GameSession, GameSession.id == RoundRow.session_id)
        .where(*where)
    )
    counted: dict[int, dict[str, tuple[int, int]]] = defaultdict(dict)
    for session_id, payer_id, cents, shares in found:
        made = rules.Round(names[payer_id], cents, {names[p]: n for p, n in shares})
        count_round(counted[session_id], made)
    return counted


def count_round(counted: dict[str, tuple[int, int]], made: rules.Round) -> None:
    """A round added to each player's (paid, owed), in cents."""
    paid, owed = counted.get(made.paid_by, (0, 0))
    counted[made.paid_by] = (paid + made.cents, owed)
    for person, part in rules.parts(made).items():
        paid, owed = counted.get(person, (0, 0))
        counted[person] = (paid, owed + part)


def rounds_from_json(session: Mapping[str, Any]) -> dict[str, tuple[int, int]]:
    """Each player's (paid, owed) in cents from the session's answer's ``rounds``."""
    counted: dict[str, tuple[int, int]] = {}
    for made in session.get("rounds") or ():
        shares = {str(p): int(n) for p, n in (made.get("shares") or {}).items()}
        currency = night_currency(session.get("options") or {})
        cents = int(Decimal(str(made["amount"])).scaleb(minor_units(currency)))
        count_round(counted, rules.Round(str(made["paid_by"]), cents, shares))
    return counted
