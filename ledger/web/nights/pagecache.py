"""A per-process cache of rendered scoreboards: many phones poll a page that rarely changes."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TypeVar

from flask import current_app, g
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

from ledger.lru import PageCache
from ledger.web.phone import fill_slots

T = TypeVar("T")

# Stands in a kept page where each browser's form token goes. The "<" cannot come from text
# a player typed (every such text is escaped, "<" to "&lt;"), and the random part is this
# process's own, never sent to a browser, so nothing else on a page can be taken for it.
TOKEN_SLOT = Markup(f"<form-token-{secrets.token_hex(16)}>")


def scoreboards() -> PageCache:
    """This app's cache of scoreboard pages."""
    return current_app.extensions.setdefault("ledger_scoreboards", PageCache())


def _token_field() -> str:
    return str(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))


def without_form_token(render: Callable[[], T]) -> T:
    """``render()`` with ``TOKEN_SLOT`` wherever a form carries this browser's CSRF token.

    Flask-WTF's ``generate_csrf`` returns the token it finds in ``g`` for the rest of the
    request; the slot put there makes every form (csrf_field, a FlaskForm) carry the slot, and
    leaves the browser's session untouched. The browser's own token is set back afterwards.
    """
    field = _token_field()
    own = g.pop(field, None)
    setattr(g, field, TOKEN_SLOT)
    g.phone_slots = True  # the phone's player's marks too (ledger/web/phone.py)
    try:
        return render()
    finally:
        g.pop(field, None)
        g.pop("phone_slots", None)
        if own is not None:
            setattr(g, field, own)


def with_form_token(page: str) -> str:
    """A kept page for this browser: its own CSRF token (Flask-WTF's) in each form's slot,
    its phone's player marked."""
    return fill_slots(page.replace(TOKEN_SLOT, str(escape(generate_csrf()))))
