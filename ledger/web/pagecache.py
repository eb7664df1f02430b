"""A per-process cache of rendered scoreboards: many phones poll a page that rarely changes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from flask import current_app


class PageCache:
    """The last ``size`` pages rendered, least recently used dropped first. Thread-safe.

    A key must hold everything that makes two renderings differ: the session's version (so a
    new hand or a correction is a new key, never a stale page), and the browser's cookies and
    language (its sign-in, form tokens and choice of Dutch). Each worker process keeps its
    own; nothing here needs sharing, because the version is read from the database first.
    """

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._pages: OrderedDict[Hashable, str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
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


def scoreboards() -> PageCache:
    """This app's cache of scoreboard pages."""
    return current_app.extensions.setdefault("ledger_scoreboards", PageCache())
