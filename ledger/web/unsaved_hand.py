"""A hand typed while signed out, carried through the passphrase page back to its form.

A hand form sent while signed out answers 401 (ledger/web/errors.py): that page sends what was
typed beside the passphrase (``carried_fields``, named ``keep-…``); once the group is open it
waits in the browser's signed cookie for the form's address (``keep``), which shows it once
(``take``). Nothing is saved on the way: the player checks the form and saves it, with its
request id and version as loaded, so a resend or a change made on another phone meanwhile is
still noticed.
"""

from __future__ import annotations

from collections.abc import Mapping

from flask import request, session
from werkzeug.datastructures import MultiDict

# The forms whose typed input the passphrase page carries through: a hand typed at the table
# is worth keeping, and these addresses show their form again on GET.
KEEPS_TYPED = frozenset({"hands.new", "hands.edit"})
KEPT_PREFIX = "keep-"
# What a kept form may hold at most (it rides in the signed cookie until the form is shown).
KEPT_MAX_CHARS = 2000
SESSION_KEY = "kept_form"


def carried_fields() -> list[tuple[str, str]]:
    """What the passphrase page sends on for the hand form this request sent while signed out
    (its fields as ``keep-…``, its CSRF token left out), or nothing for any other request."""
    if request.endpoint not in KEEPS_TYPED:
        return []
    kept = [(KEPT_PREFIX + k, v) for k, v in request.form.items(multi=True)]
    kept = [(k, v) for k, v in kept if k != KEPT_PREFIX + "csrf_token"]
    if sum(len(k) + len(v) for k, v in kept) > KEPT_MAX_CHARS:
        return []
    return kept


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
