"""One-time form tokens: a form that makes something (a session) says so once, however often
it is sent. A double tap before static/app.js has loaded, or a browser's retry on bad wifi,
sends the same token again; the token goes to the service as the request_id, which answers
what the first send made (ledger/services/sessions.py create_session).
"""

from __future__ import annotations

import re
import uuid

FIELD = "once"
_TOKEN = re.compile(r"^[0-9a-f]{32}$")


def new_token() -> str:
    return uuid.uuid4().hex


def token_of(text: str | None) -> str | None:
    """The token a form sent, or None for none or something that is not one."""
    return text if text and _TOKEN.match(text) else None
