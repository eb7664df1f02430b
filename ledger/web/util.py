"""Small helpers the page modules share."""

from __future__ import annotations

from flask import abort, request
from flask_babel import gettext as _
from flask_wtf import FlaskForm


def add_error(form: FlaskForm, field: str | None, message: str) -> None:
    """Show ``message`` beside the form's field named ``field``, or above the form."""
    name = (field or "").split(".")[-1]
    target = form._fields.get(name) if name else None
    if target is None:
        form.form_errors.append(message)
    else:
        target.errors = [*target.errors, message]


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
