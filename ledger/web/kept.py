"""A hand form typed while signed out, carried through the passphrase page to the form again.

The 401 page sends what was typed beside the passphrase (fields named ``keep-…``, see
ledger/web/errors.py); once the group is open it waits in the browser's signed cookie for the
form's address, which shows it once. Nothing is saved on the way: the player checks the form
and saves it, with its request id and version as loaded, so a resend or a change made on
another phone meanwhile is still noticed.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import session
from werkzeug.datastructures import MultiDict

from ledger.web.errors import KEPT_MAX_CHARS, KEPT_PREFIX

SESSION_KEY = "kept_form"


def keep(form: MultiDict[str, str], target: str) -> None:
    """Remember the ``keep-`` fields of ``form`` for the page at ``target``, if there are any."""
    fields = [
        [name[len(KEPT_PREFIX) :], value]
        for name, value in form.items(multi=True)
        if name.startswith(KEPT_PREFIX)
    ]
    if fields and sum(len(k) + len(v) for k, v in fields) <= KEPT_MAX_CHARS:
        session[SESSION_KEY] = {"path": target, "fields": fields}


def take(path: str) -> MultiDict[str, str] | None:
    """What was kept for the form at ``path`` (once), or None."""
    kept = session.get(SESSION_KEY)
    if not isinstance(kept, Mapping):
        return None
    if kept.get("path") != path:
        return None
    session.pop(SESSION_KEY, None)
    fields = kept.get("fields")
    if not isinstance(fields, list):
        return None
    return MultiDict(
        (str(pair[0]), str(pair[1]))
        for pair in fields
        if isinstance(pair, list | tuple) and len(pair) == 2
    )
