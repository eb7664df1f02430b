"""Which groups this browser may open: the signed session cookie, and invite links.

The cookie holds, per group the browser has opened, the group's auth epoch at that moment.
Changing the passphrase raises the epoch, so every browser that opened the group with the
old passphrase is signed out, and every invite link made before it stops working.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import abort, current_app, session
from itsdangerous import BadSignature, URLSafeSerializer

from ledger.services import pages
from ledger.services.views import GroupRef

SESSION_KEY = "groups"
RENEWED_KEY = "renewed"  # the day (ordinal) the cookie was last sent
INVITE_SALT = "pub-ledger.invite"


def signed_in_epochs() -> dict[str, int]:
    """``{group id (text): auth epoch}`` for the groups this browser has opened."""
    groups = session.get(SESSION_KEY)
    return dict(groups) if isinstance(groups, dict) else {}


def remember(group_id: int, epoch: int) -> None:
    """This browser has opened the group (with its passphrase or an invite) at this epoch."""
    groups = signed_in_epochs()
    groups[str(group_id)] = int(epoch)
    session[SESSION_KEY] = groups
    # The cookie outlives the browser being closed: a phone stays signed in for the night
    # and the next one (PERMANENT_SESSION_LIFETIME, 31 days by default).
    session.permanent = True


def renew_daily() -> None:
    """Before every page: a signed-in browser's cookie is sent anew once a day, so it stays
    signed in for PERMANENT_SESSION_LIFETIME after its last visit, not after its first."""
    today = date.today().toordinal()
    if session.permanent and session.get(RENEWED_KEY) != today:
        session[RENEWED_KEY] = today


def forget(group_id: int) -> None:
    groups = signed_in_epochs()
    if groups.pop(str(group_id), None) is not None:
        session[SESSION_KEY] = groups


def is_signed_in(group_id: int, epoch: int) -> bool:
    return signed_in_epochs().get(str(group_id)) == int(epoch)


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=INVITE_SALT)


def invite_token(group_id: int, epoch: int) -> str:
    """A token for the invite link: the group and its epoch, signed with the app's secret."""
    return _serializer().dumps({"g": int(group_id), "e": int(epoch)})


def read_invite(token: str) -> tuple[int, int] | None:
    """The (group id, epoch) the token was made for, or None for a forged or mangled token.

    The caller still compares the epoch with the group's current one: a passphrase change
    revokes every older link.
    """
    try:
        data: Any = _serializer().loads(token)
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    group_id, epoch = data.get("g"), data.get("e")
    if not isinstance(group_id, int) or not isinstance(epoch, int):
        return None
    return group_id, epoch


def group_for_page(slug: str) -> GroupRef:
    """The group of this page if this browser has opened it since its last passphrase change.

    Otherwise the answer is 401 with a page that asks for the passphrase: the same for a
    group that does not exist, so the page reveals nothing about other groups.
    """
    found = pages.group_by_slug(slug)
    if found is None or not is_signed_in(found.group.id, found.epoch):
        if found is not None:
            forget(found.group.id)
        abort(401)
    return found.group


def session_for_page(slug: str, session_id: int) -> tuple[GroupRef, pages.SessionStamp]:
    """``group_for_page`` and the stamp of the group's session ``session_id``, in one read.

    401 as ``group_for_page`` says; then 404 if the group has no such session.
    """
    found = pages.session_page_access(slug, session_id)
    if found is None or not is_signed_in(found[0].group.id, found[0].epoch):
        if found is not None:
            forget(found[0].group.id)
        abort(401)
    group_access, stamp = found
    if stamp is None:
        abort(404)
    return group_access.group, stamp


def signed_in_group(slug: str) -> GroupRef | None:
    """The group of this slug if this browser may open it now, else None (for any reason).

    Unlike ``group_for_page`` it neither answers 401 nor signs out: an error page may ask.
    """
    found = pages.group_by_slug(slug)
    if found is None or not is_signed_in(found.group.id, found.epoch):
        return None
    return found.group


def groups_of_this_browser() -> list[GroupRef]:
    """The groups this browser has opened and may still open (passphrase unchanged)."""
    epochs = signed_in_epochs()
    ids = [int(i) for i in epochs if i.isdigit()]
    return [a.group for a in pages.groups_by_id(ids) if epochs.get(str(a.group.id)) == a.epoch]


def sign_in(group: GroupRef) -> None:
    """Remember a group just opened with its passphrase (or made) at its current epoch."""
    found = pages.group_by_slug(group.slug)
    if found is not None:
        remember(found.group.id, found.epoch)


def join_with_invite(token: str) -> GroupRef | None:
    """The group an invite link opens, remembered in this browser; None if the link is void."""
    read = read_invite(token)
    if read is None:
        return None
    group_id, epoch = read
    found = pages.groups_by_id([group_id])
    if not found or found[0].epoch != epoch:
        return None
    remember(group_id, epoch)
    return found[0].group


def invite_for(group: GroupRef) -> str:
    found = pages.group_by_slug(group.slug)
    if found is None:
        abort(404)
    return invite_token(found.group.id, found.epoch)
