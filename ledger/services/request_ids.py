"""Request ids: how a service tells a resend from a new request.

A form that starts a session, enters a hand or corrects one carries a request id minted
when the form was drawn; a double tap before static/app.js has loaded, or a browser's retry
on bad wifi, sends the same id again. The service keeps the id with what the request made
(the session's row, the hand's row, the correction's line of history) and answers a resend
with what the first send made, whichever server process it reaches:
create_session (ledger/services/sessions.py), add_hand and correct_hand (hands.py).
"""

from __future__ import annotations

import re
import uuid

_MINTED = re.compile(r"^[0-9a-f]{32}$")


def new_request_id() -> str:
    """A fresh id for a form about to be drawn."""
    return uuid.uuid4().hex


def minted_request_id(text: str | None) -> str | None:
    """The id a form sent if it is one new_request_id() mints, else None (nothing to match)."""
    return text if text and _MINTED.match(text) else None
