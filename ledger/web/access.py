"""Which groups this browser may open: its signed-in grants, and invite links.

The session cookie holds, per group the browser has opened, the random token of a grant the
server keeps (ledger/services/auth.py decides when a grant holds). Signing out deletes this
browser's grant, so a copy of the cookie opens nothing afterwards; "sign out every phone"
deletes all of the group's and voids its invite links; a passphrase change ends them too.
Whether a grant holds is read with the group itself (ledger/services/pages.py): no extra
query per page.
"""

from __future__ import annotations

from datetime import date

from flask import abort, request, session

from ledger.services import auth, pages
from ledger.services.views.groups import GroupRef
from ledger.web import phone
from ledger.web.forms import renew_form_secret

SESSION_KEY = "groups"
RENEWED_KEY = "renewed"  # the day (ordinal) the cookie was last sent
OPENED_KEY = "opened"  # the groups' ids in the order they were last opened, the latest last
# The most groups one browser stays signed in to. A browser drops a cookie over 4 KB without
# a word, signing the phone out of every group at once: past this many, the group opened
# longest ago is signed out alone (about 70 bytes of cookie each).
MOST_GROUPS = 24


def signed_in_tokens() -> dict[str, str]:
    """``{group id (text): grant token}`` for the groups this browser has opened.

    A cookie from before grants (an auth epoch per group) names none: it opens nothing.
    """
    groups = session.get(SESSION_KEY)
    if not isinstance(groups, dict):
        return {}
    return {str(k): v for k, v in groups.items() if isinstance(v, str)}


def _hashes() -> list[str]:
    return [auth.token_hash(t) for t in signed_in_tokens().values()]


def remember(group_id: int) -> None:
    """This browser has opened the group (with its passphrase or an invite): a new grant."""
    groups = signed_in_tokens()
    earlier = groups.get(str(group_id))
    if earlier is not None:
        # Signing in again replaces the earlier grant: a copy of the old cookie must not
        # outlive a later sign-out.
        auth.revoke(earlier)
    groups[str(group_id)] = auth.grant(group_id, auth.WEB)
    opened = _opened(groups, str(group_id))
    for oldest in opened[:-MOST_GROUPS]:
        auth.revoke(groups.pop(oldest))
    session[SESSION_KEY] = groups
    session[OPENED_KEY] = opened[-MOST_GROUPS:]
    # The cookie outlives the browser being closed: a phone stays signed in for the night
    # and the next one (PERMANENT_SESSION_LIFETIME, 31 days by default).
    session.permanent = True
    session[RENEWED_KEY] = date.today().toordinal()
    renew_form_secret()  # a form token copied before the sign-in passes no form after it


def _opened(groups: dict[str, str], latest: str) -> list[str]:
    """The groups of ``groups`` in the order they were opened, ``latest`` last; those a cookie
    from before the order names come first, by id."""
    known = session.get(OPENED_KEY)
    known = [g for g in known if g in groups] if isinstance(known, list) else []
    earlier = sorted((g for g in groups if g not in known), key=lambda g: (len(g), g))
    return [g for g in [*earlier, *known] if g != latest] + [latest]


def renew_daily() -> None:
    """Before every page: a signed-in browser's cookie is sent anew once a day, so it stays
    signed in for PERMANENT_SESSION_LIFETIME after its last visit, not after its first; its
    grants are marked as in use (one write a day), so only unused ones are pruned."""
    today = date.today().toordinal()
    if session.permanent and session.get(RENEWED_KEY) != today:
        session[RENEWED_KEY] = today
        auth.touch(list(signed_in_tokens().values()))


def forget(group_id: int) -> None:
    """This browser no longer names the group (its grant, if any, is left to the server)."""
    groups = signed_in_tokens()
    if groups.pop(str(group_id), None) is not None:
        session[SESSION_KEY] = groups


def sign_out(group_id: int) -> None:
    """Sign this browser out: its grant is revoked on the server, then forgotten here."""
    token = signed_in_tokens().get(str(group_id))
    if token is not None:
        auth.revoke(token)
    forget(group_id)
    renew_form_secret()


def group_for_page(slug: str) -> GroupRef:
    """The group of this page if one of this browser's grants opens it.

    Otherwise the answer is 401 with a page that asks for the passphrase: the same for a
    group that does not exist, so the page reveals nothing about other groups.
    """
    found = pages.group_by_slug(slug, _hashes())
    if found is None or not found.signed_in:
        if found is not None:
            forget(found.group.id)
        abort(401)
    return _open(found.group)


def session_for_page(slug: str, session_id: int) -> tuple[GroupRef, pages.SessionStamp]:
    """``group_for_page`` and the stamp of the group's session ``session_id``, in one read.

    401 as ``group_for_page`` says; then 404 if the group has no such session.
    """
    found = pages.session_page_access(slug, session_id, _hashes())
    if found is None or not found[0].signed_in:
        if found is not None:
            forget(found[0].group.id)
        abort(401)
    group_access, stamp = found
    if stamp is None:
        abort(404)
    return _open(group_access.group), stamp


def _open(group: GroupRef) -> GroupRef:
    """The group this browser's grant has opened: the page is for it, and what the request
    changes there is done by the phone's player (or the one its form names)."""
    phone.opened(group)
    if request.method == "POST":
        phone.act_on_this_phone(group, request.form.get("by"))
    return group


def signed_in_group(slug: str) -> GroupRef | None:
    """The group of this slug if this browser may open it now, else None (for any reason).

    Unlike ``group_for_page`` it neither answers 401 nor signs out: an error page may ask.
    """
    found = pages.group_by_slug(slug, _hashes())
    if found is None or not found.signed_in:
        return None
    return found.group


def groups_of_this_browser() -> list[GroupRef]:
    """The groups this browser has opened and may still open."""
    ids = [int(i) for i in signed_in_tokens() if i.isdigit()]
    return [a.group for a in pages.groups_by_id(ids, _hashes()) if a.signed_in]


def sign_in(group: GroupRef) -> None:
    """Remember a group just opened with its passphrase (or made)."""
    remember(group.id)


def join_with_invite(token: str) -> tuple[GroupRef, int | None] | None:
    """The group an invite link opens, remembered in this browser, and the club evening whose
    check-in it lands on (a check-in code's, else None); None if the link is void.

    auth.InviteExpired if it is genuine but older than the invite lifetime or its own end.
    """
    read = auth.read_invite(token)
    if read is None:
        return None
    found = pages.groups_by_id([read.group_id])
    if not found or found[0].epoch != read.epoch or found[0].invite_epoch != read.invite_epoch:
        return None
    remember(read.group_id)
    return found[0].group, read.evening


def invite_for(group: GroupRef, *, evening: int | None = None, until: int | None = None) -> str:
    """An invite token for the group (with ``evening`` and ``until``: a club evening's
    check-in code, services/auth/invites.py)."""
    found = pages.group_by_slug(group.slug)
    if found is None:
        abort(404)
    return auth.invite_token(
        found.group.id, found.epoch, found.invite_epoch, evening=evening, until=until
    )
