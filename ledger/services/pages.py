"""Reads the web pages need beyond the API's: a group with this browser's sign-in, the board.

Added by the pages (issue #4); pure reads, no writes. A browser is signed in to a group by
a grant whose token its cookie holds (ledger/web/access.py); whether the grant still holds
is decided by ledger/services/auth.py's rule, folded into the same read of the group, so a
page pays no extra query for it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, bindparam, func, select

from ledger.extensions import db, quick_read
from ledger.models import AccessGrant, Change, GameSession, Group
from ledger.services.actors import change_views
from ledger.services.auth import web_grant_holds
from ledger.services.loading import load_session
from ledger.services.views.groups import GroupRef
from ledger.services.views.sessions import ChangeView


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
    # When the night started: never the same for two nights, so a page kept for a night is
    # never served for another, even one that took a deleted night's id (issue 36).
    started_at: datetime | None = None
    # The group's nights version (ledger/models.py Group): what the night's pages show of
    # the group's other nights (a pot waiting from one) moves it, never this night's version.
    nights_version: int = 0

    @property
    def page(self) -> str:
        """What a night's page follows (static/live.js): the night's version and the group's
        nights version, so a pot that starts to wait on another night shows at once."""
        return page_stamp(self.version, self.nights_version)


def page_stamp(version: int, nights_version: int) -> str:
    """A night's page's stamp: its version and its group's nights version ("12.340")."""
    return f"{version}.{nights_version}"


# Built once: every phone at the table polls its scoreboard, and this is all a poll reads.
_PAGE_ACCESS = (
    select(
        Group.id,
        Group.slug,
        Group.name,
        Group.auth_epoch,
        Group.nights_version,
        GameSession.version,
        GameSession.hands_played,
        GameSession.status,
        GameSession.started_at,
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
    group_id, group_slug, name, epoch, nights, version, played, status, started_at, grant = row
    stamp = (
        SessionStamp(version, played, status, started_at, nights) if version is not None else None
    )
    return GroupAccess(GroupRef(group_id, group_slug, name), epoch, grant is not None), stamp


# How many groups of one name a passphrase typed with the name is checked against: each check
# is a slow hash, so a name shared by many groups must not make one guess cost many.
NAMED_CHECKS = 5


def slugs_named(name: str) -> list[str]:
    """The slugs of the groups called ``name`` (any case, spaces tidied), oldest first: at most
    NAMED_CHECKS, and one more when there are more (the caller says how to reach the rest)."""
    clean = " ".join(name.split())
    if not clean:
        return []
    return list(
        db.session.scalars(
            select(Group.slug)
            .where(func.lower(Group.name) == clean.lower())
            .order_by(Group.id)
            .limit(NAMED_CHECKS + 1)
        )
    )


@dataclass(frozen=True)
class HistoryPage:
    """One page of a session's history, oldest first: its changes and where it stands."""

    changes: list[ChangeView]
    page: int  # from 1
    pages: int  # at least 1


def history_page(group: GroupRef, session_id: int, page: int, per_page: int) -> HistoryPage:
    """The changes of page ``page`` of the session's history (a page past the last is the last),
    so a night of 2,000 hands is never read and sent whole."""
    row = load_session(group, session_id)
    of_session = Change.session_id == row.id
    total = db.session.scalar(select(func.count()).select_from(Change).where(of_session)) or 0
    pages = max(1, -(-total // per_page))
    page = min(max(page, 1), pages)
    changes = db.session.scalars(
        select(Change)
        .where(of_session)
        .order_by(Change.id)
        .offset((page - 1) * per_page)
        .limit(per_page)
    ).all()
    views = change_views(changes)
    return HistoryPage(views, page, pages)
