"""A club evening's hold on its tables' seats (RULES.md §19): a player sits at one table a round.

``load_evening`` reads (and with ``lock`` locks) the group's evening; ``closed_evening_of``
names the closed evening a night is a table of (its list is kept: the night stays finished);
``check_one_table`` is what a night asks before a player joins it by hand
(services/sessions.py ``join_session``):
the draw seats each player once, and a table's night must not seat a second time a player
whose result another table of the same round already counts. It lives apart from
services/evenings.py, which starts the tables' nights through services/sessions.py, so the
two import each other not at all.
"""

from __future__ import annotations

from sqlalchemy import select

from ledger.extensions import db
from ledger.models import Evening, EveningTable, Player, SessionPlayer
from ledger.rules.errors import RuleError
from ledger.services.errors import NotFound
from ledger.services.groups import name_key
from ledger.services.loading import group_row
from ledger.services.views.groups import GroupRef


def load_evening(group: GroupRef, evening_id: int, *, lock: bool = False) -> Evening:
    """The group's evening; another group's answers as a missing one. With ``lock`` it is
    locked for the rest of the transaction (SQLite: by a write to it; else FOR UPDATE)."""
    row: Evening | None = group_row(Evening, group, evening_id, lock=lock)
    if row is None:
        raise NotFound("There is no evening {id}.", id=evening_id)
    return row


def closed_evening_of(session_id: int) -> str | None:
    """The name of the closed club evening whose table the night ``session_id`` is, or None
    (a night of no evening, or of one still open)."""
    return db.session.scalar(
        select(Evening.name)
        .join(EveningTable, EveningTable.evening_id == Evening.id)
        .where(EveningTable.session_id == session_id, Evening.status == "closed")
    )


def check_one_table(group: GroupRef, session_id: int, name: str) -> None:
    """Refuse ``name`` joining the night ``session_id`` when that night is a table of a club
    evening and the player already has a seat (or had one, and left: their result there still
    counts) at another table of the same round. A night of no evening has nothing to check.

    The evening is locked first, so two phones seating the same player at two tables at the
    same moment take turns and the second is refused; call this before the night is locked
    (the draw locks the evening before it starts any night: the same order)."""
    table = db.session.execute(
        select(EveningTable.evening_id, EveningTable.round)
        .join(Evening, Evening.id == EveningTable.evening_id)
        .where(EveningTable.session_id == session_id, Evening.group_id == group.id)
    ).first()
    if table is None:
        return
    evening_id, round_number = table
    load_evening(group, evening_id, lock=True)
    elsewhere = db.session.execute(
        select(Player.name, EveningTable.number)
        .join(SessionPlayer, SessionPlayer.player_id == Player.id)
        .join(EveningTable, EveningTable.session_id == SessionPlayer.session_id)
        .where(
            EveningTable.evening_id == evening_id,
            EveningTable.round == round_number,
            EveningTable.session_id != session_id,
            Player.group_id == group.id,
            Player.name_key == name_key(name),
        )
        .order_by(EveningTable.number)
    ).first()
    if elsewhere is not None:
        raise RuleError(
            "{player} is at table {table} in this round: a player sits at one table.",
            field="name",
            players=(elsewhere[0],),
            player=elsewhere[0],
            table=elsewhere[1],
        )
