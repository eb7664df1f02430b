"""Grants: a browser's sign-in and an API access token, random tokens stored as their SHA-256."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from flask import current_app
from sqlalchemy import (
    bindparam,
    delete,
    func,
    or_,
    select,
    update,
)

from ledger.extensions import db, quick_read
from ledger.models import (
    AccessGrant,
    Group,
    utcnow,
)
from ledger.services.auth.lockout import WRONG, _count_failure, client_of
from ledger.services.errors import Conflict, Unauthorized
from ledger.services.unit_of_work import write
from ledger.services.views.groups import GroupRef

WEB = "web"


API = "api"


def token_hash(token: str) -> str:
    """What is stored of a grant's token: its SHA-256 (the token is 256 random bits, so a
    fast hash is enough; no passphrase is involved)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def web_grant_holds(hashes: Any) -> Any:
    """The SQL condition under which one of a browser's grants (``hashes``, an expanding
    bind parameter of token hashes) opens the group it is joined to: a web grant of that
    group, made since the last passphrase change. Folded into the page's own read of the
    group (ledger/services/pages.py), so checking it costs no query."""
    return (
        (AccessGrant.group_id == Group.id)
        & (AccessGrant.kind == WEB)
        & (AccessGrant.auth_epoch == Group.auth_epoch)
        & AccessGrant.token_hash.in_(hashes)
    )


def _idle_limit() -> timedelta:
    lifetime = current_app.config.get("PERMANENT_SESSION_LIFETIME", timedelta(days=31))
    if not isinstance(lifetime, timedelta):
        lifetime = timedelta(seconds=int(lifetime))
    return lifetime + timedelta(days=1)


def grant(group_id: int, kind: str) -> str:
    """A new random token that opens the group (``kind`` web: a browser; api: a client).

    Old grants of the group go on the way: those of an earlier passphrase, browsers' unused
    for longer than a cookie lives, and past ``MOST_SIGN_INS`` the browser unused longest.
    A group holds at most ``MOST_TOKENS`` API tokens (Conflict, 409, past them): grants are
    rows of the group too, and a group's size is bounded (ledger/services/room.py).
    """
    token = secrets.token_urlsafe(32)
    now = utcnow()

    def work() -> None:
        epoch = db.session.scalar(select(Group.auth_epoch).where(Group.id == group_id))
        if epoch is None:
            raise Unauthorized(WRONG)
        db.session.execute(
            delete(AccessGrant)
            .where(
                AccessGrant.group_id == group_id,
                or_(
                    AccessGrant.auth_epoch != epoch,
                    (AccessGrant.kind == WEB) & (AccessGrant.seen_at < now - _idle_limit()),
                ),
            )
            .execution_options(synchronize_session=False)
        )
        _make_room_for_grant(group_id, kind)
        db.session.add(
            AccessGrant(
                group_id=group_id,
                kind=kind,
                token_hash=token_hash(token),
                auth_epoch=epoch,
                created_at=now,
                seen_at=now,
            )
        )

    write(work)
    return token


# Grants a group keeps: sign-ins of browsers (the least recently used goes past this) and API
# access tokens (a new one is refused past this: revoke one, or change the passphrase).
MOST_SIGN_INS = 1000


MOST_TOKENS = 100


def _make_room_for_grant(group_id: int, kind: str) -> None:
    of_kind = (AccessGrant.group_id == group_id) & (AccessGrant.kind == kind)
    if kind == API:
        held = db.session.scalar(select(func.count(AccessGrant.id)).where(of_kind)) or 0
        if held >= MOST_TOKENS:
            raise Conflict(
                "This group has {most} access tokens, the most it may have: revoke one that is "
                "no longer used, or change the passphrase to end them all.",
                most=MOST_TOKENS,
            )
        return
    oldest = (
        select(AccessGrant.id)
        .where(of_kind)
        .order_by(AccessGrant.seen_at.desc(), AccessGrant.id.desc())
        .offset(MOST_SIGN_INS - 1)
    )
    db.session.execute(
        delete(AccessGrant)
        .where(AccessGrant.id.in_(oldest))
        .execution_options(synchronize_session=False)
    )


_BEARER = (
    select(Group.id, Group.slug, Group.name)
    .join(AccessGrant, AccessGrant.group_id == Group.id)
    .where(
        AccessGrant.token_hash == bindparam("hash"),
        AccessGrant.kind == API,
        AccessGrant.auth_epoch == Group.auth_epoch,
    )
)


def group_for_token(token: str, address: str | None = None) -> GroupRef:
    """The group an API access token opens: one indexed read, no lockout, no slow check.

    A wrong or revoked token is 401 and counts against the address like a wrong passphrase.
    """
    row = None
    if token:
        with quick_read() as connection:
            row = connection.execute(_BEARER, {"hash": token_hash(token)}).first()
    if row is None:
        _count_failure(client_of(address), utcnow())
        raise Unauthorized("This access token does not open any group (revoked, or made up).")
    return GroupRef(row.id, row.slug, row.name)


def revoke(token: str) -> None:
    """This grant stops working at once, in every worker (its row is gone)."""

    def work() -> None:
        db.session.execute(
            delete(AccessGrant)
            .where(AccessGrant.token_hash == token_hash(token))
            .execution_options(synchronize_session=False)
        )

    write(work)


def sign_out_everywhere(group: GroupRef) -> None:
    """Every browser's sign-in of the group ends and every invite link made so far is void.

    The API's access tokens stay (a script's token is revoked on its own, or by a new
    passphrase), so does the passphrase.
    """

    def work() -> None:
        db.session.execute(
            delete(AccessGrant)
            .where(AccessGrant.group_id == group.id, AccessGrant.kind == WEB)
            .execution_options(synchronize_session=False)
        )
        db.session.execute(
            update(Group)
            .where(Group.id == group.id)
            .values(invite_epoch=Group.invite_epoch + 1)
            .execution_options(synchronize_session=False)
        )

    write(work)


def touch(tokens: Sequence[str]) -> None:
    """These browsers' grants are in use today: unused ones are pruned, these are kept."""
    hashes = [token_hash(t) for t in tokens]
    if not hashes:
        return

    def work() -> None:
        db.session.execute(
            update(AccessGrant)
            .where(AccessGrant.token_hash.in_(hashes), AccessGrant.kind == WEB)
            .values(seen_at=utcnow())
            .execution_options(synchronize_session=False)
        )

    write(work)
