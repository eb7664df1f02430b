"""One-time form tokens: a form that makes something (a session) says so once, however often
it is sent. A double tap before static/app.js has loaded, or a browser's retry on bad wifi,
sends the same token again, and finds what the first send made.

What a token made is remembered twice: in the browser's signed cookie (a resend after the
first answer came back), and in this process (a resend that arrives while the first is still
being made: the cookie it carries does not know yet). The process's memory is bounded and
per worker; the services would have to know the token to make it hold across workers.
"""

from __future__ import annotations

import re
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from flask import current_app, session

FIELD = "once"
SESSION_KEY = "made"
_TOKEN = re.compile(r"^[0-9a-f]{32}$")
# How many made things the cookie remembers: the last few forms of this browser.
COOKIE_KEEPS = 5
PROCESS_KEEPS = 1024


def new_token() -> str:
    return uuid.uuid4().hex


def token_of(text: str | None) -> str | None:
    """The token a form sent, or None for none or something that is not one."""
    return text if text and _TOKEN.match(text) else None


class _Made:
    """Tokens and what each made, in this process; one lock so a resend waits for the first."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.made: OrderedDict[tuple[str, str], int] = OrderedDict()


def _process() -> _Made:
    return current_app.extensions.setdefault("ledger_once", _Made())


def made(scope: str, token: str) -> int | None:
    """The id the form with ``token`` made in ``scope`` (a group's slug), or None yet."""
    kept = session.get(SESSION_KEY)
    if isinstance(kept, Mapping):
        found = kept.get(token)
        if isinstance(found, list) and len(found) == 2 and found[0] == scope:
            return int(found[1])
    return _process().made.get((scope, token))


def remember(scope: str, token: str, made_id: int) -> None:
    kept = session.get(SESSION_KEY)
    items = list(kept.items()) if isinstance(kept, Mapping) else []
    items = [(k, v) for k, v in items if k != token][-(COOKIE_KEEPS - 1) :]
    session[SESSION_KEY] = dict([*items, (token, [scope, made_id])])
    memory = _process().made
    memory[(scope, token)] = made_id
    while len(memory) > PROCESS_KEEPS:
        memory.popitem(last=False)


@contextmanager
def once(scope: str, token: str | None) -> Iterator[int | None]:
    """Around making something with a form's token: yields what that token made already (then
    make nothing), else None (make it and ``remember`` it before the block ends). Without a
    token the block just runs."""
    if token is None:
        yield None
        return
    first = made(scope, token)
    if first is not None:
        yield first
        return
    with _process().lock:
        yield made(scope, token)
