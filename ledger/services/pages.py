"""Reads the web pages need beyond the API's: a group with this browser's sign-in, the board.

Added by the pages (issue #4); pure reads, no writes. A browser is signed in to a group by
a grant whose token its cookie holds (ledger/web/access.py); whether the grant still holds
is decided by ledger/services/auth.py's rule, folded into the same read of the group, so a
page pays no extra query for it.
"""

from __future__ import annotations

import typing
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Integer, Table, and_, bindparam, case, func, or_, select

from ledger.extensions import DriverRead, db, quick_read
from ledger.models import AccessGrant, GameSession, Group, Hand
from ledger.services import charts, hands
from ledger.services.auth import web_grant_holds
from ledger.services.results import GroupRef, ScoreboardView


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


_PAGE_ACCESS_READ = DriverRead(_PAGE_ACCESS, expanding=("grants",))


def session_page_access(
    slug: str, session_id: int, grants: Iterable[str] = ()
) -> tuple[GroupAccess, SessionStamp | None] | None:
    """The group of ``slug`` with its epoch, and the stamp of its session ``session_id`` (None
    if the group has no such session); None if there is no such group. One query."""
    # Straight through the driver on a pooled connection of its own: none of the ORM's or
    # Core's work is needed for a few numbers and names, and the poll holds no transaction.
    with quick_read() as connection:
        params = {"slug": slug, "session_id": session_id, "grants": list(grants)}
        row = _PAGE_ACCESS_READ.first(connection, params)
    if row is None:
        return None
    group_id, group_slug, name, epoch, version, hands_played, status, grant = row
    stamp = SessionStamp(version, hands_played, status) if version is not None else None
    return GroupAccess(GroupRef(group_id, group_slug, name), epoch, grant is not None), stamp


# The scoreboard page's access read, which brings what the page shows along when the session
# is at a version other than ``known`` (the one this process keeps the page's reads for): the
# session's row with its kept chart, on the line of its last hand, and its last ``recent``
# hands' lines, oldest first. At ``known`` the hands' range is empty and the row's columns
# NULL: a kept page's read stays a few numbers. One statement, so the access, the version and
# the reads are of one moment, and a page built after a new hand waits for the database once.
_BOARD = typing.cast(Table, GameSession.__table__).alias("board")
_HANDS = typing.cast(Table, Hand.__table__)
_NEW_HERE = GameSession.version != bindparam("known", type_=Integer)
_SCOREBOARD_ACCESS = (
    _PAGE_ACCESS.add_columns(
        *(column.label(column.name) for column in _BOARD.c), *charts.KEPT_COLUMNS
    )
    .add_columns(*hands.LINE_COLUMNS)
    .outerjoin(
        _HANDS,
        and_(
            _HANDS.c.session_id == GameSession.id,
            _HANDS.c.number
            > GameSession.hands_played
            - case((_NEW_HERE, bindparam("recent", type_=Integer)), else_=0),
            _HANDS.c.number <= GameSession.hands_played,
        ),
    )
    .outerjoin(
        _BOARD,
        and_(
            _BOARD.c.id == GameSession.id,
            _NEW_HERE,
            or_(_HANDS.c.number == GameSession.hands_played, GameSession.hands_played == 0),
        ),
    )
    .outerjoin(*charts.kept_join(_BOARD))
)
_SCOREBOARD_ACCESS_READ = DriverRead(_SCOREBOARD_ACCESS, expanding=("grants",))
_PARTS = (
    len(_PAGE_ACCESS.selected_columns),
    len(_BOARD.c) + len(charts.KEPT_COLUMNS),
    len(hands.LINE_COLUMNS),
)


def scoreboard_page_access(
    slug: str, session_id: int, grants: Iterable[str], known: int | None, recent: int
) -> tuple[GroupAccess, SessionStamp | None, ScoreboardView | None] | None:
    """``session_page_access`` with the scoreboard's reads (``hands.scoreboard``'s answer for
    ``recent`` hands, no hand just saved) when the session is at a version other than
    ``known``; None for them at ``known`` (or where there is no such session). One query."""
    if recent < 1:
        raise ValueError("A scoreboard shows at least its last hand.")
    with quick_read() as connection:
        params = {
            "slug": slug,
            "session_id": session_id,
            "grants": list(grants),
            "known": -1 if known is None else known,
            "recent": recent,
        }
        rows = _SCOREBOARD_ACCESS_READ.rows_in_parts(connection, params, _PARTS)
    if not rows:
        return None
    group_id, group_slug, name, epoch, version, hands_played, status, grant = rows[0][0]
    group = GroupAccess(GroupRef(group_id, group_slug, name), epoch, grant is not None)
    if version is None:
        return group, None, None
    stamp = SessionStamp(version, hands_played, status)
    board = next((row for _access, row, _line in rows if row is not None), None)
    if board is None or grant is None:
        return group, stamp, None
    # A row per hand (and per grant of the browser's that opens the group, if several), in
    # no order: sorted here, which spares the database a sort on every kept page's read.
    lines = {line.number: line for _access, _row, line in rows if line is not None}
    ordered = [hands.hand_line(lines[number]) for number in sorted(lines)]
    view = hands.scoreboard_of(group.group, board, ordered)
    return group, stamp, view


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
