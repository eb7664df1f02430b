"""Invite links: the group, its auth and invite epochs and the time, signed with the app's
secret; they open the group for ``LEDGER_INVITE_LIFETIME_DAYS``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

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


def invite_token(group_id: int, epoch: int, invite_epoch: int) -> str:
    """A token for the invite link: the group, its epochs and the time, signed with the secret."""
    return _invites().dumps({"g": int(group_id), "e": int(epoch), "i": int(invite_epoch)})


class InviteExpired(Exception):
    """The invite link is genuine but older than the invite lifetime."""


def read_invite(token: str) -> tuple[int, int, int] | None:
    """The (group id, auth epoch, invite epoch) the token was made for; None for a forged or
    mangled token; InviteExpired past its lifetime.

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
    found = (data.get("g"), data.get("e"), data.get("i"))
    if not all(isinstance(n, int) for n in found):
        return None
    return found  # type: ignore[return-value]
