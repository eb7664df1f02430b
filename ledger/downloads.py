"""Files as downloads: their names (group, game, session, day) and the HTTP answer that
makes a browser save them. The JSON API's and the pages' downloads both use these."""

from __future__ import annotations

import re
import tempfile
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import IO, Any

from flask import Response, current_app, request
from werkzeug.wsgi import wrap_file

from ledger.rules.nights import own_name


def session_filename(session: Mapping[str, Any], extension: str, what: str = "") -> str:
    """``the-local-spot-2-2024-05-02.xlsx``: the group, the night as its pages name it (its
    game, an Any game by its name, and its number: ledger/rules/nights.py) and its day."""
    day = _day(session.get("started_at"))
    game = own_name(session.get("options") or {}) or session.get("game") or ""
    number = session.get("number") or session.get("id")
    parts = [session.get("group"), str(game).lower(), str(number), day, what]
    return _filename(parts, extension)


def group_filename(slug: str, extension: str, what: str = "") -> str:
    return _filename([slug, what], extension)


def _day(stamp: Any) -> str:
    try:
        return datetime.fromisoformat(str(stamp)).date().isoformat()
    except ValueError:
        return ""


def _filename(parts: list[Any], extension: str) -> str:
    name = "-".join(str(p) for p in parts if p)
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "pub-ledger"
    return f"{name}.{extension}"


def download(data: bytes | str, mimetype: str, filename: str) -> Response:
    """A file the browser saves rather than shows, never cached by a proxy on the way."""
    response = current_app.response_class(data, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    response.headers["Cache-Control"] = "private, no-store"
    return response


# A file written for a download is held in memory up to this size, then on disk.
SPOOL_BYTES = 1_000_000


def download_written(
    write: Callable[[IO[bytes]], object], mimetype: str, filename: str
) -> Response:
    """A file ``write`` writes, sent as ``download`` sends one: written to a temporary file
    first (on disk once it outgrows SPOOL_BYTES) and sent from it, so that a long history's
    workbook is never held whole in memory. The server closes (and so removes) the file once
    it is sent."""
    spool = tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES)
    try:
        write(spool)
        size = spool.tell()
        spool.seek(0)
        if size <= SPOOL_BYTES:  # still in memory: sent as bytes, the file let go now
            with spool:
                return download(spool.read(), mimetype, filename)
    except BaseException:
        spool.close()
        raise
    body = wrap_file(request.environ, spool)
    response = current_app.response_class(body, mimetype=mimetype, direct_passthrough=True)
    response.headers["Content-Length"] = str(size)
    response.call_on_close(spool.close)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    response.headers["Cache-Control"] = "private, no-store"
    return response


def today() -> str:
    return datetime.now().date().isoformat()
