"""Reads the web pages need beyond the API's: a group's sign-in epoch, and the leaderboard.

Added by the pages (issue #4); pure reads, no writes. A browser stays signed in to a group
by remembering its auth epoch (ledger/web/access.py): these answer the group with its epoch
so a page can tell whether the passphrase changed since.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import func, select

from ledger.extensions import db
from ledger.models import GameSession, Group, Hand
from ledger.rules.money import amount
from ledger.rules.registry import GAMES
from ledger.services.views import GroupRef


@dataclass(frozen=True)
class GroupAccess:
    """A group and its auth epoch, which rises with every passphrase change."""

    group: GroupRef
    epoch: int


def _access(row: Group) -> GroupAccess:
    return GroupAccess(GroupRef(row.id, row.slug, row.name), row.auth_epoch)


def group_by_slug(slug: str) -> GroupAccess | None:
    row = db.session.scalar(select(Group).where(Group.slug == slug))
    return _access(row) if row is not None else None


def groups_by_id(ids: Iterable[int]) -> list[GroupAccess]:
    """The groups of these ids that exist, by name: one query."""
    wanted = {int(i) for i in ids}
    if not wanted:
        return []
    rows = db.session.scalars(select(Group).where(Group.id.in_(wanted))).all()
    return sorted((_access(r) for r in rows), key=lambda a: (a.group.name.casefold(), a.group.id))


def session_version(group: GroupRef, session_id: int) -> int | None:
    """The session's version (it rises with every change), or None if the group has no such
    session: one small query, so a page can tell whether what it showed last is still true."""
    return db.session.scalar(
        select(GameSession.version).where(
            GameSession.id == session_id, GameSession.group_id == group.id
        )
    )


def slugs_named(name: str) -> list[str]:
    """The slugs of the groups called ``name`` (any case, spaces tidied), oldest first."""
    clean = " ".join(name.split())
    if not clean:
        return []
    return list(
        db.session.scalars(
            select(Group.slug)
            .where(func.lower(Group.name) == clean.lower())
            .order_by(Group.id)
            .limit(5)
        )
    )


@dataclass(frozen=True)
class LeaderboardRow:
    player: str
    sessions: int
    hands_won: int
    points: int  # summed over the points games
    money: dict[str, Decimal] = field(default_factory=dict)  # net, per currency


def leaderboard(group: GroupRef) -> list[LeaderboardRow]:
    """Every player's totals across the group's sessions: two queries however many sessions.

    Net money is each money session's balance in its currency (antes and the pot counted);
    points add up each points session's score; hands won count the hands a player won or
    shared. Sorted by net money, then hands won, best first (points are not ranked: in some
    games the most wins, in others the fewest).
    """
    sessions = db.session.execute(
        select(GameSession.id, GameSession.game, GameSession.options, GameSession.state).where(
            GameSession.group_id == group.id
        )
    ).all()
    played: dict[str, int] = defaultdict(int)
    points: dict[str, int] = defaultdict(int)
    money: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    for _id, game_key, options, state in sessions:
        game = GAMES.get(game_key)
        scores = (state or {}).get("scores", {})
        for name, score in scores.items():
            played[name] += 1
            if game is not None and game.money:
                currency = str(options.get("currency", ""))
                value = amount(int(score), Decimal(str(options["unit_value"])), currency)
                money[name][currency] += value
            else:
                points[name] += int(score)
    won: dict[str, int] = defaultdict(int)
    if sessions:
        outcomes = db.session.scalars(
            select(Hand.outcome).where(Hand.session_id.in_([s.id for s in sessions]))
        )
        for outcome in outcomes:
            for name in (outcome or {}).get("winners", ()):
                won[name] += 1
    rows = [
        LeaderboardRow(
            player=name,
            sessions=played[name],
            hands_won=won.get(name, 0),
            points=points.get(name, 0),
            money=dict(money.get(name, {})),
        )
        for name in played
    ]
    rows.sort(key=lambda r: (-sum(r.money.values(), Decimal(0)), -r.hands_won, r.player.casefold()))
    return rows
