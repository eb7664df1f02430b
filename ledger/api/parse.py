"""Reading request bodies: JSON objects, typed fields and hand entries, or a refusal naming it.

A body that is not JSON (or not an object, or too deep) is malformed: 400. A field of the
wrong type is well-formed JSON that breaks a rule of the call, as API.md "Errors" has it: 422
naming the field, like a value of the right type that breaks a rule (which the services and
the engine refuse). Issue 46.6: wrong types answered 400 here and 422 in the services.

Before any view sees a body it is checked as a whole (API.md "Additions", "Bounds"): sent as
``application/json`` (else 415), valid UTF-8, nested at most ``MAX_DEPTH`` deep (counted on
the raw text, so a body nested 100,000 deep never reaches the recursive parser), and holding
no number and no text that the databases cannot keep (422 naming the field).
"""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from typing import Any

from flask import request

from ledger.api.errors import APIError
from ledger.models import REQUEST_ID_LENGTH
from ledger.rules import Game, RuleError, ShapeError

# The deepest a body may nest: a hand entry needs 4 levels, so 32 is ample.
MAX_DEPTH = 32
# The largest whole number a body may hold, anywhere: the databases' integer (PostgreSQL's
# INTEGER is 32 bits). Every field has a tighter bound of its own (API.md "Bounds").
MAX_NUMBER = 2**31 - 1
# Digits a number may have before it is not read at all: Python refuses to read a number of
# thousands of digits (int_max_str_digits), and no field takes one of more than ten.
MAX_DIGITS = 20

# A JSON string, escapes included, so the brackets inside one are not counted as nesting; one
# left open runs to the end of the body. Possessive (``*+``) and with its closing quote
# optional, it always matches at a quote and never gives back or tries again: each character
# is read once, so the scan takes time in proportion to the body. (A pattern that needs the
# closing quote fails on a string left open, and is then tried again from every quote inside
# it: a body of `"` and `\"` × 16,000 took seconds, and 2 MiB would take hours.)
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
# What no text in a body may hold: NUL (PostgreSQL cannot store it) and a surrogate on its
# own (it cannot be written as UTF-8, so neither database nor the JSON answer can take it).
_UNKEEPABLE = re.compile("[\x00\ud800-\udfff]")

# A field of the wrong type: well-formed JSON that breaks a rule of the call (API.md "Errors").
WRONG_TYPE = 422

# Methods a page of another site can send without the browser asking first (a "simple"
# request): such a request must say it is JSON even with no body, or a form of any site could
# finish a session for a phone whose browser remembers the group's passphrase.
_SIMPLE_METHODS = frozenset({"POST"})


class _TooLong:
    """A number of more than MAX_DIGITS digits, kept as found so the field can be named."""

    def __init__(self, text: str) -> None:
        self.text = text


class _Twice(dict[str, Any]):
    """An object that gave one key twice (``twice``): a JSON reader keeps only the last, so
    the first would be dropped without a word; refused naming it."""

    twice = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            twice = _Twice(pairs)
            twice.twice = key
            return twice
        seen.add(key)
    return dict(pairs)


def _read_int(text: str) -> int | _TooLong:
    if len(text.lstrip("-")) > MAX_DIGITS:
        return _TooLong(text)
    return int(text)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def nesting(text: str) -> int:
    """How deep the JSON ``text`` nests its arrays and objects, without parsing it: in one
    pass, in time proportional to its length (``_STRING``)."""
    bare = _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", bare)
    return max(accumulate(map(_STEP.__getitem__, brackets), initial=0))


def json_object() -> dict[str, Any]:
    """The body as a JSON object, checked as a whole; an empty body is an empty object."""
    raw = request.get_data(cache=True)
    if request.mimetype != "application/json" and (
        raw or request.content_type or request.method in _SIMPLE_METHODS
    ):
        raise APIError(415, "Send the request body as JSON, with Content-Type: application/json.")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise APIError(400, "The request body is not valid UTF-8 text.") from None
    if not text.strip():
        return {}
    if nesting(text) > MAX_DEPTH:
        raise APIError(400, f"The request body is nested too deeply: at most {MAX_DEPTH} levels.")
    try:
        data = json.loads(
            text, parse_int=_read_int, parse_constant=_refuse_constant, object_pairs_hook=_pairs
        )
    except ValueError:
        raise APIError(400, "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise APIError(400, "The request body must be a JSON object.")
    _check_values(data, "")
    return data


def _check_values(value: Any, where: str) -> None:
    """Refuse a number or a text anywhere in the body that no field takes and no database keeps.

    ``where`` is the field in the API's notation (``results[2].cards``); the body is at most
    MAX_DEPTH deep, so the recursion is too.
    """
    if isinstance(value, str):
        if _UNKEEPABLE.search(value):
            raise APIError(
                422,
                f"The text given for {where} holds a character that cannot be kept "
                "(a NUL or half of a surrogate pair).",
                field=where,
            )
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, _TooLong) or (isinstance(value, int) and abs(value) > MAX_NUMBER):
        raise APIError(422, f"The number given for {where} is far too large.", field=where)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise APIError(422, f"The number given for {where} is too large.", field=where)
    elif isinstance(value, dict):
        if isinstance(value, _Twice):
            twice = f"{where}.{value.twice}" if where else value.twice
            raise APIError(
                422, f"{twice} is given twice in the request: give it once.", field=twice
            )
        for key, item in value.items():
            inner = f"{where}.{key}" if where else key
            if _UNKEEPABLE.search(key):
                raise APIError(
                    422,
                    "A name in the request holds a character that cannot be kept "
                    "(a NUL or half of a surrogate pair).",
                    field=where or None,
                )
            _check_values(item, inner)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _check_values(item, f"{where}[{i}]")


def text(body: dict[str, Any], key: str, where: str | None = None) -> str | None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise APIError(WRONG_TYPE, f"{key} must be text.", field=where or key)
    return value


def whole(body: dict[str, Any], key: str, where: str | None = None) -> int | None:
    value = body.get(key)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise APIError(WRONG_TYPE, f"{key} must be a whole number.", field=where or key)
    return value


def flag(body: dict[str, Any], key: str, where: str | None = None) -> bool:
    value = body.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise APIError(WRONG_TYPE, f"{key} must be true or false.", field=where or key)
    return value


def text_list(body: dict[str, Any], key: str, where: str | None = None) -> list[str] | None:
    value = body.get(key)
    if value is None:
        return None
    where = where or key
    if not isinstance(value, list):
        raise APIError(WRONG_TYPE, f"{key} must be a list.", field=where)
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise APIError(WRONG_TYPE, f"Each of {key} must be text.", field=f"{where}[{i}]")
    return value


def mapping(body: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = body.get(key)
    if value is not None and not isinstance(value, dict):
        raise APIError(WRONG_TYPE, f"{key} must be an object.", field=key)
    return value


def hand_entry(game: Game, body: dict[str, Any]) -> Any:
    """A hand entry (API.md "Hand entry") as the session's game takes it: the game reads its
    own fields (``Game.read_entry``); a field of the wrong type is the caller's mistake."""
    try:
        return game.read_entry(body)
    except ShapeError as e:
        raise APIError(WRONG_TYPE, e.message, field=e.field) from None


def request_id(body: dict[str, Any]) -> str | None:
    value = text(body, "request_id")
    if value is not None and len(value) > REQUEST_ID_LENGTH:
        raise RuleError(
            "A request_id has at most {most} characters.",
            field="request_id",
            most=REQUEST_ID_LENGTH,
        )
    return value or None
