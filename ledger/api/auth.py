"""The API's credentials: HTTP Basic (the group's slug and passphrase) or a Bearer access token.

What each one may do is decided in ledger/services/auth.py; this only reads the header.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from flask import g, request

from ledger import services
from ledger.api.parse import json_object, text
from ledger.rules import RuleError
from ledger.services import actors
from ledger.services import auth as rules
from ledger.services.views.groups import GroupRef

F = TypeVar("F", bound=Callable[..., Any])


def request_group() -> GroupRef:
    """The group whose credentials came with the request; Unauthorized (401) otherwise."""
    auth = request.authorization
    if auth is not None and auth.type == "bearer":
        token = auth.token or ""
        group = rules.group_for_token(token, request.remote_addr)
        g.ledger_token = token  # DELETE …/tokens/current revokes the token of this call
        return group
    if auth is None or auth.type != "basic" or not auth.username:
        raise services.Unauthorized("This needs the group's name and passphrase.")
    if "\x00" in auth.username:
        # No slug holds NUL, and PostgreSQL cannot even be asked about one: as a wrong name.
        raise services.Unauthorized("The group's name or passphrase is wrong.")
    return services.authenticate(auth.username, auth.password or "", request.remote_addr)


def with_group(view: F) -> F:
    """Authenticate first, then call ``view(group, …)``; a change is made ``by`` the player
    the body names (API.md fifth edition), if it names one."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        group = request_group()
        if request.method not in _READS:
            acting_player(group)
        return view(group, *args, **kwargs)

    return wrapped  # type: ignore[return-value]


# Calls that change nothing: they take no ``by``.
_READS = frozenset({"GET", "HEAD", "OPTIONS"})


def acting_player(group: GroupRef) -> None:
    """``"by": name`` in a JSON body: the player of the group who makes this change (RULES.md
    §20); another name is refused (422 naming ``by``) before anything is read or changed. It
    only names who did it: the credentials decide what the call may do.

    ``by`` in the address (``DELETE …?by=Ann``) is refused rather than passed over: the
    history would name nobody where the caller meant to name someone. A DELETE names its
    player in a JSON body as any other call does (docs/api.md).
    """
    if "by" in request.args:
        raise RuleError("by goes in the JSON body, a DELETE's too, not in the address.", field="by")
    if request.mimetype != "application/json":
        return  # no JSON body (a DELETE without one): nobody named; a wrong one is the view's
    by = text(json_object(), "by")
    if by is None:
        return
    if not by.strip():
        raise RuleError("by names the player who made the change; it is empty.", field="by")
    player = actors.named_player(group.id, by)
    actors.act(actors.Actor(group.id, by_id=player.id))


def own_group(group: GroupRef, slug: str) -> GroupRef:
    """The group in the URL must be the one authenticated; another group's is not found."""
    if slug != group.slug:
        raise services.NotFound("There is no group {slug}.", slug=slug)
    return group
