"""What a page's request may hold: its size (MAX_CONTENT_LENGTH, more for a restore), and no
character the database cannot keep."""

from __future__ import annotations

from flask import Flask, abort, request
from flask_babel import gettext as _

# A group's whole history can be far larger than any other form the app takes. The restore
# page needs no sign-in and reading a file keeps a thread busy for seconds, so the page takes
# what a group of regulars makes in years; a bigger file goes through `ledger restore`.
RESTORE_LIMIT = 16 * 1024 * 1024
RESTORE_ENDPOINT = "home.restore"


def init_app(app: Flask) -> None:
    """Call before ``csrf.init_app``: CSRFProtect's hook reads the form to find its token, and
    once the body has been read a larger limit set in the view comes too late."""
    app.before_request(allow_larger_body)


def allow_larger_body() -> None:
    if is_restore():
        request.max_content_length = RESTORE_LIMIT


def is_restore() -> bool:
    return request.endpoint == RESTORE_ENDPOINT


def refuse_unkeepable_text() -> None:
    """A page's form or query holding NUL answers 400 before any view reads it (an address
    holding one, 404).

    PostgreSQL cannot store NUL, and no keyboard types one: only a crafted request sends it.
    (Forms never hold a lone surrogate: werkzeug decodes them with replacement characters.
    The API checks its JSON bodies itself, ledger/api/parse.py.)
    """
    if request.path == "/api" or request.path.startswith("/api/"):
        return
    if "\x00" in request.path:
        abort(404)  # no slug or token holds NUL: nothing is at such an address
    for values in (request.args, request.form):
        for key, value in values.items(multi=True):
            if "\x00" in key or "\x00" in value:
                abort(400, _("The form held a character that cannot be kept (NUL)."))
