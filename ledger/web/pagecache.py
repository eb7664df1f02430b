"""A per-process cache of rendered scoreboards: many phones poll a page that rarely changes."""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import TypeVar

from flask import current_app, g
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape

T = TypeVar("T")

# How long a phone waits for another request building the same page before building its own:
# a build takes milliseconds, so only a build stuck behind the database waits this long.
BUILD_WAIT_SECONDS = 5.0

# Stands in a kept page where each browser's form token goes. The "<" cannot come from text
# a player typed (every such text is escaped, "<" to "&lt;"), and the random part is this
# process's own, never sent to a browser, so nothing else on a page can be taken for it.
TOKEN_SLOT = Markup(f"<form-token-{secrets.token_hex(16)}>")


class PageCache:
    """The last ``size`` pages rendered, least recently used dropped first. Thread-safe.

    A key must hold everything that makes two renderings differ: the session's version (so a
    new hand or a correction is a new key, never a stale page), the address, the language and
    the group's name. Not the browser's form token: pages are kept with ``TOKEN_SLOT`` in its
    place (``without_form_token``) and each response gets its own (``with_form_token``), so
    every phone at the table is served the one page built for a version. Each worker process
    keeps its own; nothing here needs sharing, because the version is read from the database
    first.
    """

    def __init__(self, size: int = 256, wait: float = BUILD_WAIT_SECONDS) -> None:
        self._size = size
        self._wait = wait
        self._pages: OrderedDict[Hashable, str] = OrderedDict()
        self._building: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            return self._get(key)

    def _get(self, key: Hashable) -> str | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: Hashable, page: str) -> None:
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > self._size:
                self._pages.popitem(last=False)

    def get_or_build(self, key: Hashable, build: Callable[[], tuple[str, bool]]) -> str:
        """The kept page of ``key``, or the one ``build`` makes: ``(page, may it be kept)``.

        When a hand is entered, every phone at the table asks for the new version at once.
        Only the first builds it; the others wait for that build (for ``wait`` seconds at
        most, then they build their own) and are served the page it kept.
        """
        with self._lock:
            page = self._get(key)
            if page is not None:
                return page
            underway = self._building.get(key)
            if underway is None:
                done = self._building[key] = threading.Event()
        if underway is None:
            try:
                page, keep = build()
                if keep:
                    self.put(key, page)
                return page
            finally:
                with self._lock:
                    del self._building[key]
                done.set()
        underway.wait(self._wait)
        page = self.get(key)
        if page is not None:
            return page
        # That build failed, took too long or was for its browser alone: this one's own.
        page, keep = build()
        if keep:
            self.put(key, page)
        return page


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
    try:
        return render()
    finally:
        g.pop(field, None)
        if own is not None:
            setattr(g, field, own)


def with_form_token(page: str) -> str:
    """A kept page for this browser: its own CSRF token (Flask-WTF's) in each form's slot."""
    return page.replace(TOKEN_SLOT, str(escape(generate_csrf())))
