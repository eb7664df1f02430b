"""The history's changes checked against their shapes, as the services write them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ledger.backup.values import _bad, _clean_name, _is_int, _missing, _not_a_name, _unknown
from ledger.models import (
    NAME_LENGTH,
)
from ledger.rules.codecs import (
    BUY_IN,
    ENTRY,
    MOVE,
    NAMED,
    OUTCOME,
    SCORES,
    SEATING,
    STATE,
    Shape,
)
from ledger.services.backups import BackupError

# Shapes, as the services write them (the syntax and a hand's own: ledger/rules/codecs.py).
# The table's plan for a night's pot (services/plans.py).
PLAN = {"leftover_pot": ("text", None), "pot_keeper": (NAMED, None)}

OPTIONS = {"*": ("text", "int", "bool", None)}  # null: an option left off (a tally's target)


# A session deleted since (an id not of the file, null after a restore).
GONE = ("gone", None)


# A payment at the table: in units, or in the currency on a night with rounds (RULES.md §6c).
PAID = {"from": NAMED, "to": NAMED, "units?": "int", "amount?": "text"}


# A round as its line of history keeps it (services/rounds.py).
ROUND = {
    "what": ("text", None),
    "amount": "text",
    "paid_by": NAMED,
    "for": [NAMED],
    "shares": SCORES,
}


# Each kind of change: (hand_number, before, after). hand_number: "hand" a hand's number,
# "count" the hands played then, None none.
CHANGES: dict[str, tuple[str | None, Shape, Shape]] = {
    "session.created": (
        None,
        None,
        {
            "game": "text",
            "players": [NAMED],
            "dealer": NAMED,
            "options": OPTIONS,
            "carried_in": "int",
            "carried_from": ("id", None),
            "carried_in_keeper?": NAMED,  # who brought the pot (RULES.md §2)
        },
    ),
    # A pot carried into a session deleted before its first hand names a session no longer
    # there ("gone", null once restored): _check_history wants its pot.returned after it.
    "pot.carried": (None, {"carried_into": ("id", None)}, {"session": ("id", GONE), "pot": "int"}),
    "pot.returned": (None, {"carried_into": GONE}, {"carried_into": None, "pot": "int"}),
    "hand.created": ("hand", None, {"entry": ENTRY, "request_id": ("text", None)}),
    "hand.corrected": (
        "hand",
        {"entry": ENTRY, "outcome": OUTCOME, "scores_after": SCORES, "revision": "int"},
        {"entry": ENTRY, "recomputed": ["int"], "request_id?": "text"},
    ),
    "hand.deleted": (
        "hand",
        {
            "entry": ENTRY,
            "outcome": OUTCOME,
            "scores_after": SCORES,
            "request_id": ("text", None),
            "revision": "int",
        },
        None,
    ),
    "player.joined": ("count", SEATING, {"player": NAMED, "after": NAMED}),
    "player.left": ("count", SEATING, {"player": NAMED}),
    "player.bought_in": ("count", None, {**BUY_IN, "request_id?": "text"}),
    "player.buy_in_taken_back": ("count", {**BUY_IN, "request_id?": "text"}, None),
    "player.renamed": (None, {"player": NAMED}, {"player": NAMED}),
    "session.called": ("count", None, {"call": "text", "+": "json"}),
    "session.finished": (
        None,
        {"state": STATE},
        {
            "leftover_pot": ("text", None),
            "movements": [MOVE],
            "pot_keeper?": NAMED,
            "settle?": "text",  # "tab": finished onto the tab (RULES.md §6a)
        },
    ),
    "pot.planned": (None, PLAN, PLAN),
    "session.reopened": (
        None,
        {"finish": {"leftover_pot": ("text", None), "movements": [MOVE]}},
        PLAN,
    ),
    # A points game for money that ended by itself, put on the tab; a night taken off it.
    "tab.added": (None, None, {"settle": "text"}),
    "tab.removed": (None, {"on_tab": "bool"}, {"on_tab": "bool"}),
    "payment.recorded": (None, None, PAID),
    "payment.deleted": (None, {**PAID, "at": "text"}, None),
    # RULES.md §6c: a round added, changed or taken back.
    "round.added": (None, None, {**ROUND, "request_id?": "text"}),
    "round.changed": (None, {**ROUND, "request_id?": "text"}, {**ROUND, "request_id?": "text"}),
    "round.deleted": (None, {**ROUND, "request_id?": "text"}, None),
}


def _shape(value: Any, shape: Shape, where: str, sessions: Mapping[int, Any] | None = None) -> None:
    """Refuse ``value`` unless it has ``shape`` (see the shapes above)."""
    if isinstance(shape, tuple):
        for option in shape:
            try:
                _shape(value, option, where, sessions)
                return
            except BackupError:
                continue
        raise _bad(where, value)
    if shape is None:
        ok = value is None
    elif isinstance(shape, list):
        if not isinstance(value, list):
            raise _bad(where, value)
        for i, item in enumerate(value):
            _shape(item, shape[0], f"{where}[{i}]", sessions)
        return
    elif isinstance(shape, dict):
        _fields(value, shape, where, sessions)
        return
    elif shape == NAMED:
        if not _clean_name(value, NAME_LENGTH):
            raise _not_a_name(where, value)
        return
    elif shape == "text":
        ok = isinstance(value, str)
    elif shape == "int":
        ok = _is_int(value)
    elif shape == "bool":
        ok = isinstance(value, bool)
    elif shape == "true":
        ok = value is True
    elif shape == "json":
        ok = _json(value)
    elif shape == "id":
        ok = _is_int(value) and (sessions is None or value in sessions)
    elif shape == "gone":
        ok = _is_int(value) and (sessions is None or value not in sessions)
    else:  # pragma: no cover - a shape above misspelled
        raise AssertionError(shape)
    if not ok:
        raise _bad(where, value)


def _fields(value: Any, shape: dict[str, Any], where: str, sessions: Any) -> None:
    """Refuse the object ``value`` unless its keys and their values have ``shape``."""
    if not isinstance(value, dict):
        raise _bad(where, value)
    if "*" in shape:
        for key, item in value.items():
            if not _clean_name(key, NAME_LENGTH):
                raise _not_a_name(where, key)
            _shape(item, shape["*"], f"{where}.{key}", sessions)
        return
    keys = {k.rstrip("?"): k for k in shape if k != "+"}
    for key in value:
        if key in keys:
            continue
        if "+" not in shape or not isinstance(key, str):
            raise _unknown(f"{where}.{key}")
        _shape(value[key], shape["+"], f"{where}.{key}", sessions)
    for key, spelled in keys.items():
        if key in value:
            _shape(value[key], shape[spelled], f"{where}.{key}", sessions)
        elif not spelled.endswith("?"):
            raise _missing(where, key)


def _json(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is JSON as the app writes it: text, whole numbers, true or false,
    null, and lists and objects of those, a few levels deep."""
    if value is None or isinstance(value, str | bool) or _is_int(value):
        return True
    if depth > 8:
        return False
    if isinstance(value, list):
        return all(_json(item, depth + 1) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json(v, depth + 1) for k, v in value.items())
    return False


def _check_change(c: Mapping[str, Any], sessions: Mapping[int, Any]) -> None:
    kind = c["kind"]
    if kind not in CHANGES:
        raise _bad("changes.kind", kind)
    number, before, after = CHANGES[kind]
    hand_number = c["hand_number"]
    if (number is None) != (hand_number is None) or (number == "hand" and hand_number == 0):
        raise _bad("changes.hand_number", hand_number)
    if c["version"] < 1:
        raise _bad("changes.version", c["version"])
    _shape(c["before"], before, f"changes.before ({kind})", sessions)
    _shape(c["after"], after, f"changes.after ({kind})", sessions)


def _check_returned(changes: Sequence[Mapping[str, Any]], sessions: Mapping[int, Any]) -> None:
    """A pot carried into a session that is gone came back: a pot.returned naming that session
    follows its pot.carried, and a pot comes back only from where it went."""
    gone: Any = ()  # the deleted session the pot went into, while it is away
    for c in changes:
        if c["kind"] == "pot.carried" and c["after"]["session"] not in sessions:
            gone = c["after"]["session"]
        elif c["kind"] == "pot.carried":
            gone = ()
        elif c["kind"] == "pot.returned":
            if c["before"]["carried_into"] != gone:
                raise _bad(
                    "changes.before (pot.returned).carried_into", c["before"]["carried_into"]
                )
            gone = ()
    if gone != ():
        raise _bad("changes.after (pot.carried).session", gone)


def _check_history(
    s: Mapping[str, Any], changes: Sequence[Mapping[str, Any]], hands: Sequence[Mapping[str, Any]]
) -> None:
    """The session's changes count its versions 1, 2, 3… up to its version (each change made
    one), and each hand's revision and request id are as its history says."""
    sid = s["id"]
    versions = [c["version"] for c in changes]
    if versions != list(range(1, s["version"] + 1)) or not changes:
        raise BackupError(
            "The backup does not add up: the history of session {id} does not count its "
            "versions 1 to {version}.",
            id=sid,
            version=s["version"],
        )
    if changes[0]["kind"] != "session.created":
        raise _bad("changes.kind", changes[0]["kind"])
    # A session's game and options are chosen when it starts and never change after (as JSON:
    # 1 is not true, "5" is not 5).
    started = changes[0]["after"]
    if started["game"] != s["game"] or json.dumps(started["options"], sort_keys=True) != (
        json.dumps(s["options"], sort_keys=True)
    ):
        raise BackupError(
            "The backup does not add up: session {id} holds another game or other options "
            "than its history says it was started with.",
            id=sid,
        )
    revision: dict[int, int] = {}
    request: dict[int, Any] = {}
    for c in changes:
        n = c["hand_number"]
        if c["kind"] == "hand.created":
            revision[n], request[n] = 1, c["after"]["request_id"]
        elif c["kind"] == "hand.corrected" and n in revision:
            revision[n] += 1
        elif c["kind"] == "hand.deleted":
            revision.pop(n, None)
    for h in hands:
        n = h["number"]
        if revision.get(n) != h["revision"] or request.get(n) != h["request_id"]:
            raise BackupError(
                "The backup does not add up: hand {number} of session {id} is not as its "
                "history says (its revision or request_id).",
                number=n,
                id=sid,
            )
