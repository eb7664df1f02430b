"""Ids and numbers in addresses: only what a row can have is read; anything else is not found.

An id past the databases' integer (PostgreSQL's INTEGER is 32 bits; SQLite cannot even bind
a number past 2^63) names no row, so it answers 404 before any query is made, in the API and
on the pages alike (API.md "Bounds"). Numbers in a query string (``?saved=``) are read the
same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import abort, request
from werkzeug.routing import IntegerConverter

if TYPE_CHECKING:
    from flask import Flask
    from werkzeug.routing import Map

# The largest id, hand number or version a row can hold: PostgreSQL's INTEGER.
MAX_ID = 2**31 - 1
# Digits of MAX_ID: an address with more is not read as a number at all.
MAX_ID_DIGITS = len(str(MAX_ID))


def at_most(number: int) -> str:
    """A regular expression for the ASCII numbers from 0 to ``number``, written with at most
    as many digits as ``number`` (leading zeros within them are read as usual).

    ``at_most(250)`` is ``(?:[0-9]{1,2}|[0-1][0-9]{2}|2[0-4][0-9]{1}|250)``.
    """
    digits = str(number)
    width = len(digits)
    parts = [f"[0-9]{{1,{width - 1}}}"] if width > 1 else []
    for i, d in enumerate(digits):
        if d != "0":
            rest = width - i - 1
            lower = f"[0-{int(d) - 1}]" if d != "1" else "0"
            parts.append(digits[:i] + lower + (f"[0-9]{{{rest}}}" if rest else ""))
    parts.append(digits)
    return "(?:" + "|".join(parts) + ")"


class RowIdConverter(IntegerConverter):
    """``<int:…>`` in every route: ASCII digits only, from 0 to MAX_ID; else the route does not
    match and the answer is 404.

    The bound is in the regular expression, not only in ``max``: werkzeug refuses a number
    past ``max`` after matching the address, and answers 405 where another method's route
    matched it first.
    """

    regex = at_most(MAX_ID)

    def __init__(self, map: Map, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("max", MAX_ID)
        super().__init__(map, *args, **kwargs)  # type: ignore[arg-type]


def row_number(text: str | None) -> int | None:
    """``text`` as an id or a number a row can have, or None (not a number, or too large)."""
    if text is None:
        return None
    text = text.strip()
    if not text.isascii() or not text.isdigit() or len(text) > MAX_ID_DIGITS:
        return None
    number = int(text)
    return number if number <= MAX_ID else None


def form_number(text: str | None) -> int | None:
    """A version or a hand number a form sent back: None when empty or not a number.

    A number past any row's reads as MAX_ID + 1, which no version or hand has: the services
    compare it and refuse (a stale version) or find nothing, never bind it past the database.
    """
    text = (text or "").strip()
    if not text.isascii() or not text.isdigit():
        return None
    number = row_number(text)
    return MAX_ID + 1 if number is None else number


def init_app(app: Flask) -> None:
    """Every ``<int:…>`` in a route added after this is a RowIdConverter."""
    app.url_map.converters["int"] = RowIdConverter


def query_number(name: str) -> int | None:
    """The query string's ``name`` as a row's number; None when absent or not a number.

    A number no row can have answers 404, as the same number in the address would.
    """
    text = request.args.get(name)
    if text is None:
        return None
    number = row_number(text)
    if number is None and text.strip().isascii() and text.strip().isdigit():
        abort(404)
    return number
