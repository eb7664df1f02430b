"""Serving for a host: a trusted reverse proxy, Secure cookies over https, the access log,
and a console that stays quiet while all is well.

Both switches are settings read on each request (LEDGER_TRUSTED_PROXY, LEDGER_ACCESS_LOG),
so `ledger serve --trusted-proxy --access-log` can turn them on for an app already made.
Errors are logged whatever the settings: Flask logs the traceback of every 500 to stderr.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask, has_request_context, request
from flask.sessions import SecureCookieSessionInterface
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.wsgi import ClosingIterator

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

ACCESS_LOGGER = "ledger.access"
# waitress says "Task queue depth is N" (a WARNING of this logger) whenever a request waits
# for a thread: at a table of phones that is every burst of page loads, a few milliseconds
# each, and it read like an error (issue 37: 46 of them on one night). Only a queue this many
# times the threads deep is worth a word, and that word at most once a minute.
QUEUE_LOGGER = "waitress.queue"
WAITING_PER_THREAD = 4
BUSY_EVERY = 60.0  # seconds


def init_app(app: Flask) -> None:
    """Wrap the app's WSGI callable and its cookies for the settings above."""
    app.wsgi_app = HostingMiddleware(app, app.wsgi_app)  # type: ignore[method-assign]
    app.session_interface = HttpsAwareSessionInterface()


def cookie_secure(app: Flask) -> bool:
    """Whether a cookie set now gets ``Secure``: always over https (as the browser or, with a
    trusted proxy, the proxy says), and whenever SESSION_COOKIE_SECURE asks for it."""
    if app.config.get("SESSION_COOKIE_SECURE"):
        return True
    return has_request_context() and request.is_secure


class HttpsAwareSessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked ``Secure`` when the page came over https: a
    cookie sent over https is never sent back over plain http, where anyone could read it."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return cookie_secure(app)


class HostingMiddleware:
    """X-Forwarded-* from one trusted proxy, then the access line when the answer is sent."""

    def __init__(self, app: Flask, wsgi_app: WSGIApplication) -> None:
        self.app = app
        self.wsgi_app = wsgi_app
        # One proxy in front: the last X-Forwarded-For entry is the phone's address; the proxy
        # says whether the phone used https and which host name it asked for.
        self.behind_proxy = ProxyFix(wsgi_app, x_for=1, x_proto=1, x_host=1)

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        config = self.app.config
        inner = self.behind_proxy if config.get("LEDGER_TRUSTED_PROXY") else self.wsgi_app
        if not config.get("LEDGER_ACCESS_LOG"):
            return inner(environ, start_response)

        started = time.perf_counter()
        status: list[str] = []

        def remember_status(code: str, headers: Any, exc_info: Any = None) -> Any:
            status[:] = [code]
            return start_response(code, headers, exc_info)

        def log_line() -> None:
            elapsed = (time.perf_counter() - started) * 1000
            access_logger().info(
                "%s %s %s %s %.0f ms",
                # ProxyFix has put the phone's address here (from a header: any text).
                printable(environ.get("REMOTE_ADDR", "-")),
                printable(environ.get("REQUEST_METHOD", "-")),
                printable(
                    logged_path(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", ""))
                ),
                status[0].split(" ", 1)[0] if status else "-",
                elapsed,
            )

        try:
            body = inner(environ, remember_status)
        except BaseException:
            status[:] = ["500"]
            log_line()
            raise
        return ClosingIterator(body, log_line)


# An invite link's address is a key to its group for days: the log names the page, not the key.
INVITE_PREFIX = "/join/"


def logged_path(path: str) -> str:
    """The path as the access log shows it: an invite link's token left out."""
    if path.startswith(INVITE_PREFIX) and len(path) > len(INVITE_PREFIX):
        return INVITE_PREFIX + "…"
    return path


def printable(text: str) -> str:
    """``text`` with every character that is not printable escaped as Python writes it
    (``\\n``, ``\\x1b``): a path's %0a must not start a line of the client's making in the
    log, which a tool banning addresses for failed sign-ins would believe."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def access_logger() -> logging.Logger:
    """``ledger.access``: one line per request on stderr, with the time it was answered."""
    logger = logging.getLogger(ACCESS_LOGGER)
    if not logger.handlers:
        handler = StderrHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%Y-%m-%d %H:%M:%S"))
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False  # not a second time through Flask's handler of "ledger"
    return logger


class StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a line is logged (a redirect, a test's capture),
    not to the stream there was when the handler was made."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


class QueueDepth(logging.Filter):
    """waitress's queue warnings, kept to a server really short of threads, in words."""

    def __init__(self, threads: int) -> None:
        super().__init__()
        self.threads = threads
        self.said = -BUSY_EVERY

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if not (isinstance(args, tuple) and len(args) == 1 and isinstance(args[0], int)):
            return True  # another message of waitress's: as it is
        depth, now = args[0], time.monotonic()
        if depth <= self.threads * WAITING_PER_THREAD or now - self.said < BUSY_EVERY:
            return False
        self.said = now
        record.msg = (
            "The server is busy: %d requests wait for one of its %d threads. A club's server "
            "may want more (ledger serve --threads, --workers; docs/hosting.md)."
        )
        record.args = (depth, self.threads)
        return True


def quiet_queue(threads: int) -> None:
    """Keep waitress's queue warnings for a server ``threads`` threads cannot keep up with."""
    logger = logging.getLogger(QUEUE_LOGGER)
    for earlier in [f for f in logger.filters if isinstance(f, QueueDepth)]:
        logger.removeFilter(earlier)
    logger.addFilter(QueueDepth(threads))
