"""Kept scoreboards answered before Flask's request handling: what every phone at a table asks.

Every phone at the table reloads the scoreboard when a hand is entered, and once the first of
them has built the new version (ledger/web/pagecache.py), the others are served that kept
page. Serving it needs three things: the phone's signed cookie (its grants and form-token
secret), one query (is a grant still good, and which version is the session at; for a version
this process has not drawn, the same query brings what the page shows), and the page
with the phone's own form token. Flask's request handling around that (the request context,
routing, the before- and after-request hooks, the response object) costs as much again as
all three together, so a kept page is answered here, in a WSGI layer in front of Flask, with
exactly the answer Flask would give: the same body, token, headers and compression.

Only the plain case is answered here: ``GET /g/<slug>/s/<id>`` with no query string, a valid
cookie that signs the phone in, no message waiting for it (flashes), no daily renewal due and
a form-token secret already set. The page is the one kept for the session's version, the
address, the language and the group's name; for a version not drawn yet (the first look after
a hand), it is built here by the view's own code (``sessions.kept_scoreboard``) in a request
context of its own, without Flask's routing, hooks and response around it, and kept as the
view would keep it. Anything else (a sign-out, a 404, a HEAD, a cookie to renew or set, a
build that would change the phone's cookie) goes to Flask as before.
tests/web/test_kept_pages.py compares the answers, kept and built, with Flask's.
"""

from __future__ import annotations

import re
import time
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import session as flask_session
from itsdangerous import BadSignature
from markupsafe import escape
from werkzeug.http import parse_cookie

from ledger.ids import MAX_ID
from ledger.services.results import GroupRef
from ledger.web import access, compress, i18n, pagecache, security, sessions

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment
    from flask import Flask

# The scoreboard's address (sessions.show): slugs are made of these characters; an address
# holding anything else, or an id with a leading zero, is Flask's to read.
SCOREBOARD = re.compile(r"/g/([A-Za-z0-9_.~-]{1,200})/s/([1-9][0-9]{0,9})")
# Phones' cookies read and kept per process: a busy server's phones, with room to spare.
KEPT_COOKIES = 4096


@dataclass(frozen=True)
class Browser:
    """What a phone's Cookie header says, once its session cookie's signature is checked."""

    signed_at: int  # when the session cookie was signed (its age is checked on every use)
    permanent: bool
    renewed: object  # the day the cookie was last renewed (ledger/web/access.py)
    flashes: bool  # a message waits for the next page
    grants: tuple[str, ...]  # the hashes of its grants' tokens
    form_secret: str | None  # Flask-WTF's raw token, which each page's form token signs
    language: str | None  # the language switch's cookie


class KeptPages:
    """The WSGI layer: a kept scoreboard when one fits the request, else the app below."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        self.enabled = True
        self._browsers: pagecache.PageCache[Browser] = pagecache.PageCache(size=KEPT_COOKIES)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        try:
            answer = self.kept_answer(environ) if self.enabled else None
        except Exception:
            # Flask answers instead, with its own error page if the trouble is real (the
            # database gone, say), and logs it then; this says where it was met first.
            self.app.logger.warning("a kept page could not be answered", exc_info=True)
            answer = None
        if answer is None:
            return self.wsgi_app(environ, start_response)
        headers, body = answer
        start_response("200 OK", headers)
        return [body]

    def kept_answer(self, environ: WSGIEnvironment) -> tuple[list[tuple[str, str]], bytes] | None:
        """The headers and body Flask would send for this request, if a kept page makes them."""
        if environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return None
        path = environ.get("PATH_INFO", "")
        found = SCOREBOARD.fullmatch(path)
        if found is None or int(found[2]) > MAX_ID:
            return None
        root = environ.get("SCRIPT_NAME", "")
        if not root.isascii():
            return None  # a prefix Flask decodes: Flask's to read
        app = self.app
        if app.config.get("WTF_CSRF_TIME_LIMIT") is not None:
            return None  # each page's token is signed anew: Flask's work
        if app.config.get("SESSION_REFRESH_EACH_REQUEST"):
            return None  # every answer sends the cookie anew: Flask's work
        if app.config.get("SERVER_NAME"):
            return None  # addresses matched by host name too: Flask's routing
        browser = self.browser(environ.get("HTTP_COOKIE", ""))
        if browser is None or browser.flashes or browser.form_secret is None:
            return None
        if access.renewal_due(browser.permanent, browser.renewed):
            return None  # the daily renewal sends a new cookie: Flask's work
        slug, session_id = found[1], int(found[2])
        language = i18n.locale_for(browser.language, environ.get("HTTP_ACCEPT_LANGUAGE"))
        with app.app_context():
            access_read = access.page_access(slug, session_id, browser.grants, scoreboard=True)
            # Flask, answering what is not kept here, reads the same again: it may take this.
            environ[access.PAGE_ACCESS_READ] = (slug, session_id, browser.grants, access_read)
            if access_read is None:
                return None  # not signed in, or no such session: Flask answers it
            group, stamp = access_read
            # request.full_path of this request, as the view makes its key.
            key = pagecache.scoreboard_key(
                session_id, stamp.version, root.rstrip("/"), path + "?", language, group
            )
            page = pagecache.scoreboards().get(key)
            if page is None:
                # A new version: built here as the view builds it, without Flask's dispatch
                # around it (routing, hooks, the response object: as much as the build's
                # reads). Flask's turn if the build wants to change the phone's cookie.
                page = self.built(environ, key, group, session_id, stamp.version)
                if page is None:
                    return None
            token = pagecache.signed_form_token(browser.form_secret)
        body = page.replace(pagecache.TOKEN_SLOT, str(escape(token))).encode()
        return self.headers(environ, body)

    def built(
        self,
        environ: WSGIEnvironment,
        key: Hashable,
        group: GroupRef,
        session_id: int,
        version: int,
    ) -> str | None:
        """The page the view would build for this plain look (ledger/web/sessions.py
        ``kept_scoreboard``, with the form token's slot), in a request context of this
        request's own; None if the build changed the phone's session (a cookie to send)."""
        with self.app.request_context(environ):
            page = sessions.kept_scoreboard(key, group, session_id, version)
            if flask_session.modified:
                return None
        return page

    def headers(self, environ: WSGIEnvironment, body: bytes) -> tuple[list[tuple[str, str]], bytes]:
        """A page's headers, with the body gzipped where compress.py would."""
        headers = [("Content-Type", "text/html; charset=utf-8")]
        packed = compress.packed_page(
            body, environ.get("HTTP_ACCEPT_ENCODING"), environ.get("HTTP_SEC_FETCH_SITE")
        )
        if packed is not None:
            body = packed
            headers.append(("Content-Encoding", "gzip"))
        headers.append(("Content-Length", str(len(body))))
        # As Flask's answer says it: the page depends on these, and on the cookie it read.
        headers.append(("Vary", "Accept-Encoding, Sec-Fetch-Site, Cookie"))
        headers.extend(security.HEADERS.items())
        return headers, body

    def browser(self, cookie_header: str) -> Browser | None:
        """The phone's cookie, read once per process; None if it carries no valid session."""
        app = self.app
        max_age = int(app.permanent_session_lifetime.total_seconds())
        kept = self._browsers.get(cookie_header)
        if kept is None:
            kept = self._read_cookie(cookie_header, max_age)
            if kept is None:
                return None
            self._browsers.put(cookie_header, kept)
        # The age is checked on every use, as Flask's own reading of the cookie would.
        age = time.time() - kept.signed_at
        return kept if 0 <= age <= max_age else None

    def _read_cookie(self, cookie_header: str, max_age: int) -> Browser | None:
        app = self.app
        cookies = parse_cookie(cookie_header)
        value = cookies.get(app.config["SESSION_COOKIE_NAME"])
        serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
        if not value or serializer is None:
            return None
        try:
            data, signed_at = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return None
        if not isinstance(data, dict):
            return None
        secret = data.get(str(app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token")))
        return Browser(
            signed_at=int(signed_at.timestamp()),
            permanent=bool(data.get("_permanent")),
            renewed=data.get(access.RENEWED_KEY),
            flashes=bool(data.get("_flashes")),
            grants=tuple(access.grant_hashes(data)),
            form_secret=secret if isinstance(secret, str) else None,
            language=cookies.get(i18n.COOKIE),
        )


def init_app(app: Flask) -> None:
    """Put the layer in front of the app: call before any middleware that must see every
    request (ledger/hosting.py's proxy fix and access log wrap it)."""
    layer = KeptPages(app, app.wsgi_app)
    app.wsgi_app = layer  # type: ignore[method-assign]
    app.extensions["ledger_kept_pages"] = layer
