"""Whose phone this is (RULES.md §20): a signed cookie per group naming one of its players.

The cookie holds the player's id, signed with the app's secret key for that group alone, and
stays on the phone until the phone says otherwise (the group page's choice, an evening's
check-in): a rename keeps it, a player no longer in the group reads as nobody ("a phone").
It opens nothing: it is read only for a group this browser's grant has already opened
(ledger/web/access.py), and the API never reads it. What it does: the pages mark the
phone's player (``mine``), and changes made on the phone name that player.

The kept scoreboard is one page for the whole table: there ``mine`` leaves a slot per name,
filled for each phone as it is sent (``fill_slots``), as the form token is.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from flask import Blueprint, current_app, g, request
from itsdangerous import BadSignature, URLSafeSerializer
from markupsafe import Markup, escape
from werkzeug.wrappers import Response

from ledger.hosting import cookie_secure
from ledger.services import actors
from ledger.services.errors import RuleError, ServiceError
from ledger.services.views.groups import GroupRef, PlayerView

bp = Blueprint("phone", __name__)

# Kept until changed: as long as a browser keeps any cookie (Chromium's most, 400 days).
MAX_AGE = timedelta(days=400)
MINE = "mine"  # the class of the phone's player's line (static/style.css)
# Stands in a kept page where a name's mark goes: "<" cannot come from a player's text
# (escaped), and the random part is this process's own, never sent to a browser.
_SLOT_TAG = f"mine-{secrets.token_hex(8)}"
_SLOT = re.compile(f"<{_SLOT_TAG}-([0-9a-f]{{16}})>")
# A kept page's words for one name: the phone's player's, or everyone else's (``mine_or``).
_WORDS = re.compile(
    f"<{_SLOT_TAG}-([0-9a-f]{{16}})-yours>(.*?)<{_SLOT_TAG}-others>(.*?)<{_SLOT_TAG}-end>", re.S
)


def cookie_name(group_id: int) -> str:
    return f"phone-{group_id}"


def _signer(group_id: int) -> URLSafeSerializer:
    # Salted per group: a value copied into another group's cookie does not verify.
    return URLSafeSerializer(current_app.secret_key or "", salt=f"ledger.phone.{group_id}")


def claim(response: Response, group_id: int, player_id: int | None) -> None:
    """Make this phone ``player_id``'s in the group from this response on; None clears it.

    The caller passes a player it has just read from the group (the reader checks again).
    """
    name = cookie_name(group_id)
    if player_id is None:
        response.delete_cookie(name, samesite="Lax", httponly=True)
    else:
        response.set_cookie(
            name,
            _signer(group_id).dumps(player_id),
            max_age=MAX_AGE,
            secure=cookie_secure(current_app),
            httponly=True,
            samesite="Lax",
        )
    g.setdefault("phone_owners", {})[group_id] = player_id  # read back within this request


def owner_id(group: GroupRef) -> int | None:
    """The id the phone's cookie names for the group, as signed; not checked against the
    group's players (``owner`` is)."""
    claimed: dict[int, int | None] = g.setdefault("phone_owners", {})
    if group.id in claimed:
        return claimed[group.id]
    raw = request.cookies.get(cookie_name(group.id))
    player_id = None
    if raw:
        try:
            value = _signer(group.id).loads(raw)
        except BadSignature:
            value = None
        player_id = value if isinstance(value, int) and not isinstance(value, bool) else None
    claimed[group.id] = player_id
    return player_id


def owner(group: GroupRef) -> PlayerView | None:
    """The group's player this phone is, as named now; None for a phone of nobody's (or of a
    player no longer in the group)."""
    player_id = owner_id(group)
    found: dict[tuple[int, int | None], PlayerView | None] = g.setdefault("phone_players", {})
    if (group.id, player_id) not in found:
        found[group.id, player_id] = actors.player_of(group.id, player_id)
    return found[group.id, player_id]


def act_on_this_phone(group: GroupRef, named: str | None) -> None:
    """Changes this request makes in ``group`` are this phone's player's, or, where the form
    names someone else (``named``: a player's name; "" for the phone's player), theirs."""
    me = owner(group)
    by = me
    if named:
        try:
            by = actors.named_player(group.id, named)
        except RuleError:
            raise ServiceError(
                "There is no player called {player} in this group to have done this.",
                player=named,
            ) from None
    actors.act(actors.Actor(group.id, by.id if by else None, me.id if me else None))


def opened(group: GroupRef) -> None:
    """The page's group, opened by this browser's grant: ``phone_player`` and ``mine`` are
    for it from now on."""
    g.phone_group = group


def page_owner() -> PlayerView | None:
    group = g.get("phone_group")
    return owner(group) if group is not None else None


def _name_hash(name: str) -> str:
    return hashlib.sha256(name.casefold().encode()).hexdigest()[:16]


@bp.app_template_global("mine")
def mine(name: str | None) -> Markup:
    """The class that marks ``name`` as this phone's player ("mine"), or nothing."""
    if name is None:
        return Markup("")
    if g.get("phone_slots"):
        return Markup(f"<{_SLOT_TAG}-{_name_hash(name)}>")
    me = page_owner()
    return Markup(MINE if me is not None and me.name.casefold() == name.casefold() else "")


@bp.app_template_global("mine_or")
def mine_or(name: str | None, yours: str, others: str = "") -> Markup:
    """``yours`` where ``name`` is this phone's player, else ``others`` ("you deal", "deals").

    Only the one chosen is in the page: words hidden by the stylesheet would still be read
    where it does not apply (a page's text copied, read without styles, a test's reading).
    """
    mark = mine(name)
    if not str(mark).startswith("<"):
        return escape(yours) if mark else escape(others)
    tag = _SLOT_TAG
    return Markup(
        f"<{tag}-{_name_hash(name or '')}-yours>{escape(yours)}<{tag}-others>{escape(others)}"
        f"<{tag}-end>"
    )


@bp.app_context_processor
def _phone_player() -> dict[str, PlayerView | None]:
    """``phone_player`` in templates: the phone's player of the page's group, or None."""
    return {"phone_player": None if g.get("phone_slots") else page_owner()}


def fill_slots(page: str) -> str:
    """A kept page for this phone: its player's slots marked, every other slot empty."""
    me = page_owner()
    own = _name_hash(me.name) if me is not None else None
    page = _WORDS.sub(lambda m: m.group(2) if m.group(1) == own else m.group(3), page)
    return _SLOT.sub(lambda m: MINE if m.group(1) == own else "", page)
