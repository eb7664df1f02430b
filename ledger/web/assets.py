"""Static files: versioned URLs a browser keeps for a year, and the icons asked for at the root.

``url_for('static', filename='style.css')`` gives ``/static/style.css?v=<hash of the file>``.
A request carrying the file's current hash is answered as cacheable for a year and immutable:
a changed file has a new hash, so a new URL, and no phone ever holds a stale stylesheet. A
request without it (or with an old hash) gets a short lifetime, so it is looked at again soon.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import threading

from flask import Blueprint, Flask, Response, current_app, request, session
from werkzeug.security import safe_join

VERSION_ARG = "v"
LONG_LIFETIME = 365 * 24 * 3600
SHORT_LIFETIME = 3600
# Hex digits of the file's SHA-256 in the URL: plenty to tell two versions of a file apart.
HASH_LENGTH = 12

# Not every system's mime.types knows the manifest's extension.
mimetypes.add_type("application/manifest+json", ".webmanifest")

bp = Blueprint("assets", __name__)


class StaticVersions:
    """The hash of each static file, computed once per version of the file.

    Keyed by the file's modification time and size too, so a file edited while the server
    runs (development) gets a new hash at once instead of the year-long cached old one.
    """

    def __init__(self) -> None:
        self._known: dict[str, tuple[tuple[int, int], str]] = {}
        self._lock = threading.Lock()

    def version(self, folder: str, filename: str) -> str | None:
        path = safe_join(folder, filename)
        if path is None:
            return None
        try:
            info = os.stat(path)
        except OSError:
            return None
        stamp = (info.st_mtime_ns, info.st_size)
        with self._lock:
            known = self._known.get(path)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            with open(path, "rb") as f:
                digest = hashlib.file_digest(f, "sha256").hexdigest()[:HASH_LENGTH]
        except OSError:
            return None
        with self._lock:
            self._known[path] = (stamp, digest)
        return digest


versions = StaticVersions()


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.url_defaults(add_version)
    app.after_request(cache_static)


def add_version(endpoint: str, values: dict[str, object]) -> None:
    """``url_for('static', …)`` gets ``?v=<hash>``, unless the caller gave one."""
    if endpoint != "static" or VERSION_ARG in values:
        return
    filename = values.get("filename")
    folder = current_app.static_folder
    if isinstance(filename, str) and folder:
        version = versions.version(folder, filename)
        if version is not None:
            values[VERSION_ARG] = version


def cache_static(response: Response) -> Response:
    """Cache-Control of static files: a year for the current version's URL, else an hour."""
    if request.endpoint not in ("static", "assets.favicon", "assets.apple_touch_icon"):
        return response
    if response.status_code not in (200, 304):
        return response
    folder = current_app.static_folder
    filename = (request.view_args or {}).get("filename")
    asked = request.args.get(VERSION_ARG)
    current = versions.version(folder, filename) if folder and isinstance(filename, str) else None
    # A response that sets a cookie (a daily renewal of the sign-in) is for this browser only.
    scope = "private" if session.modified else "public"
    if asked is not None and asked == current:
        response.headers["Cache-Control"] = f"{scope}, max-age={LONG_LIFETIME}, immutable"
    else:
        response.headers["Cache-Control"] = f"{scope}, max-age={SHORT_LIFETIME}"
    response.headers.pop("Expires", None)
    return response


# Browsers and phones ask for these at the root, whatever a page links.
@bp.get("/favicon.ico")
def favicon() -> Response:
    return current_app.send_static_file("favicon.ico")


@bp.get("/apple-touch-icon.png")
def apple_touch_icon() -> Response:
    return current_app.send_static_file("apple-touch-icon.png")
