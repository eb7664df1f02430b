"""How much one group may keep (LEDGER_GROUP_HANDS), counted in hands.

Anyone may make a group, and a group's phones or scripts may write as fast as the server
answers; so that no group can fill the disk, a group's size is bounded, counted in hands:
every hand is one, and so is every other line kept in a session's history (its start, a
correction, an undo, a payment, a player joining or leaving; the session's ``version`` counts
them all), every player of the group and every payment against its tab. A night of 40 hands
counts about 45. What a group keeps beside its nights counts as so many hands each
(``KEPT_BESIDE``): a season counts ``SEASON_HANDS``, a club evening ``EVENING_HANDS``.

The count is read with the write that would add to it (``check_room``, from
``unit_of_work.record``, ``groups.add_player``, ``tab.record_tab_payment`` and
``seasons.create_season``): one query over the group's sessions, players, tab payments and
what ``KEPT_BESIDE`` lists, by their indexes. Two writes at the very
same moment may both pass at the edge: a bound for the disk, not an exact count. What takes
back or ends (an undo, a finish) is never refused, and adds its line all the same: bounded
by the lines it takes back, so at most as many again.
`ledger groups` lists the groups by this size (ledger/services/upkeep.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, func, select
from sqlalchemy.sql import ColumnElement

from ledger.extensions import db
from ledger.models import Evening, GameSession, Player, Season, TabPayment
from ledger.services.errors import GroupFull

GROUP_HANDS_SETTING = "LEDGER_GROUP_HANDS"

# History lines that take back or end something another line started: bounded by the lines
# that are counted, and never refused, so a full group can still undo, settle and finish.
FREE_KINDS = frozenset(
    {
        "hand.deleted",
        "payment.deleted",
        "round.deleted",
        "player.left",
        "session.finished",
        "pot.carried",  # with the new session's own session.created, which is counted
        "pot.returned",
    }
)


# A season (RULES.md §13) is one row, but while it is open its table is built again over all
# its nights whenever one of them changes, and it is shown on the group page, the seasons page
# and every player's page. Anyone may make seasons, so they cannot be free: with the default
# bound a group keeps at most 200 (a season a month for sixteen years), fewer as its nights
# grow, which also bounds what one finished night costs: every open season counting it built
# again, at most about 1.7 million season-nights in a group at the bound, against 8 million
# if a season counted 100.
SEASON_HANDS = 500

# What a group keeps beside its sessions' history, its players and its tab payments: each
# kind's rows (their table, with its ``group_id``), and how many hands one row counts as. A
# new kind of thing a group makes (an evening of several tables, RULES.md §19) is added here
# with its weight, and ``size_of``, ``check_room(adding=…)`` and ``backup_size`` count it.
# A club evening (RULES.md §19) is one row beside the nights of its tables (counted as every
# night is) and its check-ins (at most one per player of the group); its list is built again
# over all its tables' nights while it is shown, so it weighs as a season does.
EVENING_HANDS = SEASON_HANDS
KEPT_BESIDE: tuple[tuple[Any, int], ...] = ((Season, SEASON_HANDS), (Evening, EVENING_HANDS))


def most_hands() -> int:
    """LEDGER_GROUP_HANDS: the most a group keeps, counted in hands; 0 for no bound."""
    return int(current_app.config.get(GROUP_HANDS_SETTING) or 0)


def size_of(group_id: Any) -> ColumnElement[int]:
    """A group's size in hands, as SQL: its sessions' history lines, its players and the
    payments against its tab."""
    lines = select(func.coalesce(func.sum(GameSession.version), 0)).where(
        GameSession.group_id == group_id
    )
    players = select(func.count(Player.id)).where(Player.group_id == group_id)
    paid = select(func.count(TabPayment.id)).where(TabPayment.group_id == group_id)
    size = lines.scalar_subquery() + players.scalar_subquery() + paid.scalar_subquery()
    for model, hands in KEPT_BESIDE:
        kept = select(func.count(model.id)).where(model.group_id == group_id)
        size = size + kept.scalar_subquery() * hands
    return size


# Built once: every change to a session reads it.
_SIZE = select(size_of(bindparam("group_id")))


def check_room(group_id: int, adding: int = 0) -> None:
    """GroupFull (409) if the group, with ``adding`` more, would hold more than this server
    keeps for one group. A change to a session is counted already (its ``version`` is raised
    before its history line is recorded): ``adding`` 0; a new player or a payment against the
    tab is not: 1."""
    most = most_hands()
    if most <= 0:
        return
    size = db.session.scalar(_SIZE, {"group_id": group_id})
    if size is not None and size + adding > most:
        raise GroupFull(most)


def backup_size(data: Mapping[str, Any]) -> int:
    """The size in hands of a checked backup's rows, as ``size_of`` counts a group's."""
    sessions = data.get("sessions") or []
    lines = sum(int(s.get("version") or 0) for s in sessions)
    besides = sum(len(data.get(model.__tablename__) or []) * hands for model, hands in KEPT_BESIDE)
    return lines + len(data.get("players") or []) + len(data.get("tab_payments") or []) + besides
