"""Reads the web pages need beyond the API's: a group with this browser's sign-in, the board.

Added by the pages (issue #4); pure reads, no writes. A browser is signed in to a group by
a grant whose token its cookie holds (ledger/web/access.py); whether the grant still holds
is decided by ledger/services/auth.py's rule, folded into the same read of the group, so a
page pays no extra query for it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

from sqlalchemy import and_, bindparam, func, select

from ledger.extensions import db, quick_read
from ledger.models import AccessGrant, GameSession, Group, Hand
from ledger.rules.money import amount
from ledger.rules.registry import GAMES
from ledger.services.auth import web_grant_holds
from ledger.services.results import GroupRef


@dataclass(frozen=True)
class GroupAccess:
    """A group, its epochs, and whether one of this browser's grants opens it."""

    group: GroupRef
    epoch: int
    signed_in: bool = False
    invite_epoch: int = 0


# Which of this browser's grants (token hashes) opens the group: see web_grant_holds.
_GRANTS = web_grant_holds(bindparam("grants", expanding=True))


_GROUP_BY_SLUG = (
    select(Group.id, Group.slug, Group.name, Group.auth_epoch, Group.invite_epoch, AccessGrant.id)
    .outerjoin(AccessGrant, _GRANTS)
    .where(Group.slug == bindparam("slug"))
)


def group_by_slug(slug: str, grants: Iterable[str] = ()) -> GroupAccess | None:
    """The group of ``slug``; ``signed_in`` if one of the grants (token hashes) opens it."""
    with quick_read() as connection:
        row = connection.execute(_GROUP_BY_SLUG, {"slug": slug, "grants": list(grants)}).first()
    if row is None:
        return None
    group_id, group_slug, name, epoch, invite_epoch, grant = row
    return GroupAccess(GroupRef(group_id, group_slug, name), epoch, grant is not None, invite_epoch)


def groups_by_id(ids: Iterable[int], grants: Iterable[str] = ()) -> list[GroupAccess]:
    """The groups of these ids that exist, by name: one query."""
    wanted = {int(i) for i in ids}
    if not wanted:
        return []
    query = (
        select(
            Group.id, Group.slug, Group.name, Group.auth_epoch, Group.invite_epoch, AccessGrant.id
        )
        .outerjoin(AccessGrant, _GRANTS)
        .where(Group.id.in_(wanted))
    )
    with quick_read() as connection:
        rows = connection.execute(query, {"grants": list(grants)}).all()
    found: dict[int, GroupAccess] = {}
    for group_id, slug, name, epoch, invite_epoch, grant in rows:
        if grant is not None or group_id not in found:
            ref = GroupRef(group_id, slug, name)
            found[group_id] = GroupAccess(ref, epoch, grant is not None, invite_epoch)
    return sorted(found.values(), key=lambda a: (a.group.name.casefold(), a.group.id))


@dataclass(frozen=True)
class SessionStamp:
    """What tells a phone whether its scoreboard is still true: it changes with every change."""

    version: int
    hands_played: int
    status: str


# Built once: every phone at the table polls its scoreboard, and this is all a poll reads.
_PAGE_ACCESS = (
    select(
        Group.id,
        Group.slug,
        Group.name,
        Group.auth_epoch,
        GameSession.version,
        GameSession.hands_played,
        GameSession.status,
        AccessGrant.id,
    )
    .outerjoin(
        GameSession,
        and_(GameSession.group_id == Group.id, GameSession.id == bindparam("session_id")),
    )
    .outerjoin(AccessGrant, _GRANTS)
    .where(Group.slug == bindparam("slug"))
)


def session_page_access(
    slug: str, session_id: int, grants: Iterable[str] = ()
) -> tuple[GroupAccess, SessionStamp | None] | None:
    """The group of ``slug`` with its epoch, and the stamp of its session ``session_id`` (None
    if the group has no such session); None if there is no such group. One query."""
    # Core on a pooled connection of its own: none of the ORM session's bookkeeping is needed
    # for a few columns, and the poll holds no transaction open.
    with quick_read() as connection:
        params = {"slug": slug, "session_id": session_id, "grants": list(grants)}
        row = connection.execute(_PAGE_ACCESS, params).first()
    if row is None:
        return None
    group_id, group_slug, name, epoch, version, hands_played, status, grant = row
    stamp = SessionStamp(version, hands_played, status) if version is not None else None
    return GroupAccess(GroupRef(group_id, group_slug, name), epoch, grant is not None), stamp


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
    games_won: int  # finished points games (Spots, Rummy, Spin Rummy) won or shared
    plays_points: bool  # has played a game scored in points
    money: dict[str, Decimal] = field(default_factory=dict)  # net, per currency
    # Points added up per game and scoring (Rummy's ``scoring`` option: a score or penalties),
    # never across them: ``(game key, scoring or None)`` → points.
    points: dict[tuple[str, str | None], int] = field(default_factory=dict)


def leaderboard(group: GroupRef) -> list[LeaderboardRow]:
    """Every player's totals across the group's sessions: two queries however many sessions.

    Net money is each money session's balance in its currency (antes and the pot counted);
    hands won count the hands a player won or shared; games won count the finished points
    games a player won or shared. Points are added up per game and scoring only: in Spots
    they are penalties (fewest wins), in Rummy a score (most wins) unless played for
    penalties. Sorted by net money, then hands won, best first.
    """
    sessions = db.session.execute(
        select(
            GameSession.id,
            GameSession.game,
            GameSession.options,
            GameSession.state,
            GameSession.status,
        ).where(GameSession.group_id == group.id)
    ).all()
    played: dict[str, int] = defaultdict(int)
    games_won: dict[str, int] = defaultdict(int)
    plays_points: set[str] = set()
    money: dict[str, dict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    points: dict[str, dict[tuple[str, str | None], int]] = defaultdict(lambda: defaultdict(int))
    for _id, game_key, options, state, status in sessions:
        game = GAMES.get(game_key)
        scores = (state or {}).get("scores", {})
        if game is not None and not game.money and status == "finished":
            for name in (state or {}).get("winners", ()):
                games_won[name] += 1
        for name, score in scores.items():
            played[name] += 1
            if game is not None and game.money:
                currency = str(options.get("currency", ""))
                value = amount(int(score), Decimal(str(options["unit_value"])), currency)
                money[name][currency] += value
            else:
                plays_points.add(name)
                scoring = options.get("scoring") if isinstance(options, dict) else None
                points[name][(game_key, scoring)] += int(score)
    won = _hands_won([s.id for s in sessions])
    rows = [
        LeaderboardRow(
            player=name,
            sessions=played[name],
            hands_won=won.get(name, 0),
            games_won=games_won.get(name, 0),
            plays_points=name in plays_points,
            money=dict(money.get(name, {})),
            points=dict(points.get(name, {})),
        )
        for name in played
    ]
    rows.sort(key=lambda r: (-sum(r.money.values(), Decimal(0)), -r.hands_won, r.player.casefold()))
    return rows


def _hands_won(session_ids: list[int]) -> dict[str, int]:
    """How many hands of these sessions each player won or shared: one query."""
    won: dict[str, int] = defaultdict(int)
    if session_ids:
        outcomes = db.session.scalars(select(Hand.outcome).where(Hand.session_id.in_(session_ids)))
        for outcome in outcomes:
            for name in (outcome or {}).get("winners", ()):
                won[name] += 1
    return won
