"""The host's look at the groups, the largest first, and removing one (`ledger groups`,
`ledger remove-group`): after abuse, a group made to fill the disk goes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update

from ledger.extensions import db
from ledger.models import (
    AccessGrant,
    AddressFailure,
    BankAccount,
    Change,
    Credential,
    GameSession,
    Group,
    Hand,
    Payment,
    Player,
    SessionChart,
    SessionPlayer,
    TabPayment,
)
from ledger.services.errors import NotFound
from ledger.services.unit_of_work import write


@dataclass(frozen=True)
class GroupSize:
    """One group as `ledger groups` lists it."""

    slug: str
    name: str
    created_at: datetime
    size: int  # in hands, as LEDGER_GROUP_HANDS counts them (ledger/services/room.py)
    hands: int
    sessions: int
    players: int
    last_played: datetime | None


def group_sizes(slug: str | None = None) -> list[GroupSize]:
    """Every group (or the one of ``slug``), the largest first, then the newest: one query,
    whatever their number. The size is ``room.size_of``'s, for every group at once."""
    sessions = (
        select(
            GameSession.group_id,
            func.count(GameSession.id).label("sessions"),
            func.coalesce(func.sum(GameSession.hands_played), 0).label("hands"),
            func.coalesce(func.sum(GameSession.version), 0).label("lines"),
            func.max(GameSession.started_at).label("last_played"),
        )
        .group_by(GameSession.group_id)
        .subquery()
    )
    players = (
        select(Player.group_id, func.count(Player.id).label("players"))
        .group_by(Player.group_id)
        .subquery()
    )
    paid = (
        select(TabPayment.group_id, func.count(TabPayment.id).label("paid"))
        .group_by(TabPayment.group_id)
        .subquery()
    )
    lines = func.coalesce(sessions.c.lines, 0) + func.coalesce(paid.c.paid, 0)
    count = func.coalesce(players.c.players, 0)
    query = (
        select(
            Group.slug,
            Group.name,
            Group.created_at,
            (lines + count).label("size"),
            func.coalesce(sessions.c.hands, 0),
            func.coalesce(sessions.c.sessions, 0),
            count,
            sessions.c.last_played,
        )
        .outerjoin(sessions, sessions.c.group_id == Group.id)
        .outerjoin(players, players.c.group_id == Group.id)
        .outerjoin(paid, paid.c.group_id == Group.id)
        .order_by((lines + count).desc(), Group.created_at.desc(), Group.id.desc())
    )
    if slug is not None:
        query = query.where(Group.slug == slug)
    rows = db.session.execute(query).all()
    return [
        GroupSize(key, name, made, int(size), int(hands), int(count), int(people), last)
        for key, name, made, size, hands, count, people, last in rows
    ]


def group_size(slug: str) -> GroupSize:
    """The one group of this slug, as ``group_sizes`` lists it; NotFound if there is none."""
    found = group_sizes(slug)
    if not found:
        raise NotFound("There is no group {slug}.", slug=slug)
    return found[0]


def remove_group(slug: str) -> GroupSize:
    """Delete the group of this slug and everything of it, in one transaction; what it held.

    Rows go child first, so no database needs its foreign keys' cascades to do it: the
    sessions' rows, the sessions, the tab's payments and the bank accounts, the players,
    remembered logins and sign-ins, the addresses' counts of wrong guesses for it, then the
    group.
    """
    gone = group_size(slug)

    def work() -> None:
        group_id = db.session.scalar(select(Group.id).where(Group.slug == slug))
        if group_id is None:
            raise NotFound("There is no group {slug}.", slug=slug)
        sessions = select(GameSession.id).where(GameSession.group_id == group_id)
        for model in (Change, Hand, Payment, SessionPlayer, SessionChart):
            _delete(model, model.session_id.in_(sessions))
        db.session.execute(
            update(GameSession)
            .where(GameSession.group_id == group_id)
            .values(carried_into_id=None)
            .execution_options(synchronize_session=False)
        )
        players = select(Player.id).where(Player.group_id == group_id)
        _delete(BankAccount, BankAccount.player_id.in_(players))
        for owned in (GameSession, TabPayment, Player, Credential, AccessGrant):
            _delete(owned, owned.group_id == group_id)
        _delete(AddressFailure, AddressFailure.key.startswith(f"g:{group_id}:", autoescape=True))
        _delete(Group, Group.id == group_id)

    write(work)
    return gone


def _delete(model: Any, where: Any) -> None:
    db.session.execute(delete(model).where(where).execution_options(synchronize_session=False))
