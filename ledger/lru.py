"""Per-process caches of things built once per version and asked for often: the least recently
used dropped first. ``PageCache`` keeps whole pages (ledger/web/nights/pagecache.py keeps the
scoreboards in one), one build per key at a time; ``Kept`` is its plain part, which also keeps
the nights' read models (ledger/services/night.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")

# How long a phone waits for another request building the same page before building its own:
# a build takes milliseconds, so only a build stuck behind the database waits this long.
BUILD_WAIT_SECONDS = 5.0


class Kept(Generic[V]):
    """The last ``size`` values put, least recently used dropped first. Thread-safe."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            return self._get(key)

    def _get(self, key: Hashable) -> V | None:
        value = self._kept.get(key)
        if value is not None:
            self._kept.move_to_end(key)
        return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._kept[key] = value
            self._kept.move_to_end(key)
            while len(self._kept) > self._size:
                self._kept.popitem(last=False)


class PageCache(Kept[str]):
    """The last ``size`` pages rendered, least recently used dropped first. Thread-safe.

    A key must hold everything that makes two renderings differ: the session's version (so a
    new hand or a correction is a new key, never a stale page), the group's nights version
    (what the page shows of the group's other nights: a pot waiting from one), the address,
    the language and the group's name. Not the browser's form token: pages are kept with a
    slot in its place and each response gets its own (ledger/web/nights/pagecache.py), so
    every phone at the table is served the one page built for a version. Each worker process
    keeps its own; nothing here needs sharing, because the versions are read from the
    database first.
    """

    def __init__(self, size: int = 256, wait: float = BUILD_WAIT_SECONDS) -> None:
        super().__init__(size)
        self._wait = wait
        self._building: dict[Hashable, threading.Event] = {}

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
