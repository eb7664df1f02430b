"""Invite links: the group, its auth and invite epochs and the time, signed with the app's
secret; they open the group for ``LEDGER_INVITE_LIFETIME_DAYS``.

A club evening's check-in code is the same invite, with two more things signed into it: the
evening whose check-in it lands on, and an end sooner than the invite lifetime (RULES.md
§19: a phone that scans it at the pub is let in for the evening, not for a week).
"""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any, NamedTuple

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

INVITE_SALT = "pub-ledger.invite.2"  # invites made before lifetimes (no time in them) are void


INVITE_LIFETIME_SETTING = "LEDGER_INVITE_LIFETIME_DAYS"


INVITE_LIFETIME_DAYS = 7


def invite_lifetime() -> timedelta:
    return timedelta(
        days=float(current_app.config.get(INVITE_LIFETIME_SETTING, INVITE_LIFETIME_DAYS))
    )


def _invites() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=INVITE_SALT)


def invite_token(
    group_id: int,
    epoch: int,
    invite_epoch: int,
    *,
    evening: int | None = None,
    until: int | None = None,
) -> str:
    """A token for the invite link: the group, its epochs and the time, signed with the secret.
    With ``evening`` the link lands on that evening's check-in, and with ``until`` (seconds
    since the epoch, UTC) it stops opening the group then (never later than the lifetime)."""
    data: dict[str, int] = {"g": int(group_id), "e": int(epoch), "i": int(invite_epoch)}
    if evening is not None:
        data["v"] = int(evening)
    if until is not None:
        data["x"] = int(until)
    return _invites().dumps(data)


class InviteExpired(Exception):
    """The invite link is genuine but older than the invite lifetime, or past its own end
    (``evening``: the club evening whose check-in code it was, else None)."""

    def __init__(self, evening: int | None = None) -> None:
        super().__init__()
        self.evening = evening


class Invite(NamedTuple):
    """What an invite link was made for."""

    group_id: int
    epoch: int
    invite_epoch: int
    evening: int | None = None  # a club evening's check-in code: where it lands


def read_invite(token: str) -> Invite | None:
    """What the token was made for; None for a forged or mangled token; InviteExpired past
    its lifetime or its own end.

    The caller still compares the epochs with the group's current ones: a passphrase change
    and "sign out every phone" revoke every older link.
    """
    try:
        data: Any = _invites().loads(token, max_age=int(invite_lifetime().total_seconds()))
    except SignatureExpired as e:
        raise InviteExpired from e
    except BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    group_id: Any = data.get("g")
    epoch: Any = data.get("e")
    invite_epoch: Any = data.get("i")
    evening: Any = data.get("v")
    until: Any = data.get("x")
    if not all(isinstance(n, int) for n in (group_id, epoch, invite_epoch)):
        return None
    if not all(n is None or isinstance(n, int) for n in (evening, until)):
        return None
    if until is not None and time.time() >= until:
        raise InviteExpired(evening)
    return Invite(int(group_id), int(epoch), int(invite_epoch), evening)  # ints, as checked
