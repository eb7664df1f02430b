"""A per-process cache of rendered scoreboards: many phones poll a page that rarely changes."""

from __future__ import annotations

import secrets
import threading
import typing
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import current_app, g, session
from flask_wtf.csrf import generate_csrf
from itsdangerous import URLSafeTimedSerializer
from markupsafe import Markup, escape

from ledger.services.results import GroupRef, ScoreboardView

T = TypeVar("T")
V = TypeVar("V")

# How long a phone waits for another request building the same page before building its own:
# a build takes milliseconds, so only a build stuck behind the database waits this long.
BUILD_WAIT_SECONDS = 5.0

# Stands in a kept page where each browser's form token goes. The "<" cannot come from text
# a player typed (every such text is escaped, "<" to "&lt;"), and the random part is this
# process's own, never sent to a browser, so nothing else on a page can be taken for it.
TOKEN_SLOT = Markup(f"<form-token-{secrets.token_hex(16)}>")


class PageCache(Generic[V]):
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
        self._pages: OrderedDict[Hashable, V] = OrderedDict()
        self._building: dict[Hashable, threading.Event] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            return self._get(key)

    def _get(self, key: Hashable) -> V | None:
        page = self._pages.get(key)
        if page is not None:
            self._pages.move_to_end(key)
        return page

    def put(self, key: Hashable, page: V) -> None:
        with self._lock:
            self._pages[key] = page
            self._pages.move_to_end(key)
            while len(self._pages) > self._size:
                self._pages.popitem(last=False)

    def get_or_build(self, key: Hashable, build: Callable[[], tuple[V, bool]]) -> V:
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


# Scoreboard reads kept per process (``scoreboard_reads``): a table's latest versions.
SCOREBOARD_READS = 256
# The hands a scoreboard lists, the last first.
RECENT_HANDS = 8


class ScoreboardReads(PageCache[ScoreboardView]):
    """Scoreboard reads kept under ``(group, session id, version)`` (``keep``), and for each
    session the latest version kept (``known``), which the page's access read is told: it
    brings the reads along for any other version (``services.scoreboard_page_access``)."""

    def __init__(self, size: int = SCOREBOARD_READS) -> None:
        super().__init__(size)
        self._latest: dict[int, tuple[GroupRef, int, int]] = {}

    def keep(self, group: GroupRef, session_id: int, version: int, board: ScoreboardView) -> None:
        key = (group, session_id, version)
        self.put(key, board)
        with self._lock:
            self._latest[session_id] = key
            if len(self._latest) > 2 * self._size:  # sessions whose reads are long gone
                for gone in [s for s, k in self._latest.items() if k not in self._pages]:
                    del self._latest[gone]

    def known(self, session_id: int) -> int | None:
        """The latest version of the session whose reads are kept here, or None."""
        with self._lock:
            key = self._latest.get(session_id)
            return key[2] if key is not None and key in self._pages else None


def app_keep(name: str, make: Callable[[], T]) -> T:
    """The app's keep called ``name`` (in ``app.extensions``), made by ``make`` the first
    time: not made anew on every call only to be dropped, as ``setdefault`` would."""
    extensions = current_app.extensions
    kept = extensions.get(name)
    if kept is None:
        kept = extensions.setdefault(name, make())
    return typing.cast(T, kept)


def scoreboards() -> PageCache[str]:
    """This app's cache of scoreboard pages."""
    return app_keep("ledger_scoreboards", PageCache[str])


def scoreboard_reads() -> ScoreboardReads:
    """This app's scoreboard reads (``services.scoreboard``'s answers) kept per process under
    the group, the session and its version: a version's second build (another address, the
    plain page after ``?saved=N``) reads nothing beyond the access read that gave the version.
    A version is never changed after it is read (every change to a session raises it), so a
    kept read is never stale; a few per table of a busy server."""
    return app_keep("ledger_scoreboard_reads", ScoreboardReads)


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


def building_kept_page() -> bool:
    """Whether the page being drawn is one to keep (inside ``without_form_token``): its forms
    carry ``TOKEN_SLOT``, so any part of it may be kept too (ledger/web/fragments.py)."""
    return g.get(_token_field()) is TOKEN_SLOT


def with_form_token(page: str) -> str:
    """A kept page for this browser: its own CSRF token (Flask-WTF's) in each form's slot."""
    return page.replace(TOKEN_SLOT, str(escape(form_token())))


# Browsers' signed form tokens kept per process: as many as phones a busy server sees.
KEPT_FORM_TOKENS = 4096
# Flask-WTF's salt for the form tokens it signs (flask_wtf/csrf.py, generate_csrf and
# validate_csrf): a token signed here is one its CSRFProtect accepts.
FORM_TOKEN_SALT = "wtf-csrf-token"


def scoreboard_key(
    session_id: int, version: int, root: str, full_path: str, language: str, group: GroupRef
) -> Hashable:
    """The key of a kept scoreboard: everything that makes two renderings differ but the form
    token (see ``PageCache``): the session's version, the prefix the app is served under
    (``request.root_path``: the page's links carry it), the address with its query string
    (``request.full_path``), the language and the group's name in the header."""
    return (session_id, version, root, full_path, language, group.name)


def form_token() -> str:
    """This browser's form token, as Flask-WTF's ``generate_csrf`` makes it, but signed once
    per browser secret in this process (``signed_form_token``) instead of once per page.

    The token goes into ``g`` as ``generate_csrf`` leaves it, so forms later in the request
    carry the same one; a browser without a secret yet gets one from ``generate_csrf``, and
    with a time limit on tokens each page signs anew.
    """
    field = _token_field()
    secret = session.get(field)
    expiring = current_app.config.get("WTF_CSRF_TIME_LIMIT") is not None
    if field in g or not isinstance(secret, str) or expiring:
        return generate_csrf()
    token = signed_form_token(secret)
    setattr(g, field, token)
    return token


def signed_form_token(secret: str) -> str:
    """The browser secret ``secret`` signed as Flask-WTF signs it, once per process.

    Signing is a tenth of serving a kept page. A token signed earlier is as good as a new one
    while tokens never expire (``WTF_CSRF_TIME_LIMIT`` None, ledger/config.py): the same
    secret, signed with the same key.
    """
    app = current_app
    key = str(app.config.get("WTF_CSRF_SECRET_KEY") or app.secret_key)
    kept: PageCache[str] = app_keep("ledger_form_tokens", lambda: PageCache(KEPT_FORM_TOKENS))
    token = kept.get((key, secret))
    if token is None:
        token = URLSafeTimedSerializer(key, salt=FORM_TOKEN_SALT).dumps(secret)
        kept.put((key, secret), token)
    return token
