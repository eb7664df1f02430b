"""A hand entry's fields, declared once by the game that takes them, and read, stored and
loaded from that declaration alone.

Each game says what a hand of it is (``Game.entry_type``, and for entries of one result per
player ``Game.result_type``): frozen dataclasses whose fields carry their *kind* (``cards``,
``whole``, ``flag``…) as metadata, made with the helpers below. From that alone a body of the
API (API.md "Hand entry") is read (``read``), an entry is stored as JSON (``to_dict``) and
loaded again (``from_dict``): no shared code knows any game's fields, so a new game's fields
are declared in its own module and nowhere else.

A field of the wrong JSON type is the caller's mistake (``ShapeError``), a value of the right
type that breaks a rule the engine's to refuse (``RuleError``): the API answers both 422
naming the field (API.md "Errors": 400 is for a body that is not JSON).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from ledger.rules.cards import CARD_LANGUAGES, cards_as_typed, english_cards
from ledger.rules.errors import RuleError

T = TypeVar("T")

# The kinds of field an entry may have, and what each holds.
TEXT = "text"  # text; with ``blank_none``, "" reads as None
CARDS = "cards"  # cards as text ("7H 7S"; the answer's list of codes is taken too), kept in English
CARD_LIST = "card_list"  # a list of card texts (Spin Rummy's melds), each kept in English
# Cards as text, or a whole number where the session takes a count instead (a Cribbage show)
CARDS_OR_WHOLE = "cards_or_whole"
WHOLE = "whole"  # a whole number
NUMBER = "number"  # a number as sent: a fraction is passed on for the engine to refuse in words
FLAG = "flag"  # true or false (absent: false)
LANGUAGE = "language"  # the language cards are typed in (RULES.md §1); not stored
RESULTS = "results"  # one result per player, of the game's ``result_type``
ITEMS = "items"  # a list of objects of the dataclass ``of`` (Klaverjassen's teams)


def entry_field(
    kind: str,
    default: Any = None,
    *,
    always: bool = False,
    blank_none: bool = False,
    of: type | None = None,
    example: str = "",
    alternative: bool = False,
) -> Any:
    """A field of an entry of this ``kind``. ``always``: stored even when empty (a stored
    entry's ``out`` and ``rummy``); ``blank_none``: text "" reads as None; ``of``: the item
    dataclass of an ``ITEMS`` field; ``example``: how the API's refusal shows a right value;
    ``alternative``: one of a result's ways to give it, of which at most one may be given
    (cards, a spot total, melds)."""
    meta = {
        "kind": kind,
        "always": always,
        "blank_none": blank_none,
        "of": of,
        "example": example,
        "alternative": alternative,
    }
    if default is None or isinstance(default, (str, int, bool, float)):
        return dataclasses.field(default=default, metadata=meta)
    return dataclasses.field(default_factory=lambda: default, metadata=meta)


class ShapeError(ValueError):
    """A field of a body sent as the wrong JSON type: the caller's mistake (the API's 422)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _kind(f: dataclasses.Field[Any]) -> str:
    return str(f.metadata.get("kind", TEXT))


def field_names(cls: type, kind: str | None = None) -> tuple[str, ...]:
    """The names of the fields of the entry or result ``cls`` (of one ``kind``, if given)."""
    return tuple(f.name for f in dataclasses.fields(cls) if kind is None or _kind(f) == kind)


# --- Reading a body of the API -------------------------------------------------------------------


def read(cls: type, body: Mapping[str, Any], result_type: type | None, *, game: str) -> Any:
    """The entry ``cls`` a JSON ``body`` describes; ``result_type`` is what each of its
    ``results`` is. Keys the entry does not have are left alone (a request's ``request_id``)."""
    values = {
        f.name: _read_field(f, body, f.name, result_type, game) for f in dataclasses.fields(cls)
    }
    return cls(**values)


def _read_result(cls: type, item: Any, where: str, game: str, label: str = "result") -> Any:
    if not isinstance(item, dict):
        raise ShapeError(f"Each {label} must be an object.", where)
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        values[f.name] = _read_field(f, item, f"{where}.{f.name}", None, game)
        if f.name == "player" and not values["player"]:
            raise RuleError("Each result needs the player's name.", field=f"{where}.player")
    names = field_names(cls)
    for key, value in item.items():
        if key in names or value is None:
            continue
        if label == "result":
            raise RuleError(
                "{game} takes no {key} in a player's result.",
                field=f"{where}.{key}",
                game=game,
                key=str(key),
            )
        raise RuleError("{game} takes no {key} there.", field=f"{where}.{key}", game=game, key=key)
    return cls(**values)


def _read_field(
    f: dataclasses.Field[Any],
    body: Mapping[str, Any],
    where: str,
    result_type: type | None,
    game: str,
) -> Any:
    kind, key = _kind(f), f.name
    value = body.get(key)
    if kind == RESULTS or kind == ITEMS:
        of = result_type if kind == RESULTS else f.metadata.get("of")
        if value is None:
            return ()
        if not isinstance(value, list):
            noun = "one result per player" if kind == RESULTS else "one object each"
            raise ShapeError(f"{key} must be a list, {noun}.", where)
        label = "result" if kind == RESULTS else "of " + key
        assert of is not None
        return tuple(
            _read_result(of, item, f"{where}[{i}]", game, label) for i, item in enumerate(value)
        )
    if kind == LANGUAGE:
        return _language(value, where)
    if value is None:
        return f.default if f.default is not dataclasses.MISSING else None
    if kind == FLAG:
        if not isinstance(value, bool):
            raise ShapeError(f"{key} must be true or false.", where)
        return value
    if kind == WHOLE:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ShapeError(f"{key} must be a whole number.", where)
        return value
    if kind == NUMBER:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ShapeError(f"{key} must be a number.", where)
        return int(value) if isinstance(value, float) and value.is_integer() else value
    if kind == CARD_LIST:
        if not isinstance(value, list):
            raise ShapeError(f"{key} must be a list.", where)
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise ShapeError(f"Each of {key} must be text.", f"{where}[{i}]")
        return tuple(value)
    if kind in (CARDS, CARDS_OR_WHOLE) and isinstance(value, list):
        if all(isinstance(c, str) for c in value):
            return " ".join(value)  # the answer's shape, ["J", "10"], is taken back too
    if kind == CARDS_OR_WHOLE and isinstance(value, int) and not isinstance(value, bool):
        return value
    if kind == CARDS_OR_WHOLE and not isinstance(value, str):
        example = f.metadata.get("example")
        raise ShapeError(
            f'{key} must be cards as text, like "{example}", or a whole number.', where
        )
    if not isinstance(value, str):
        example = f.metadata.get("example")
        said = f'{key} must be text, like "{example}".' if example else f"{key} must be text."
        raise ShapeError(said, where)
    return (value or None) if f.metadata.get("blank_none") else value


def _language(value: Any, where: str) -> str:
    """The language the cards are typed in (API.md "Additions"): "en", the default, "nl" or
    "de"."""
    if value is None:
        return "en"
    if value not in CARD_LANGUAGES:
        raise RuleError(
            "cards_language is the language the cards are typed in: {languages}.",
            field=where,
            languages=_listed(tuple(f'"{code}"' for code in CARD_LANGUAGES)),
        )
    return str(value)


def _listed(words: tuple[str, ...]) -> str:
    """Words in a sentence: "a, b or c"."""
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


# --- Storing and loading -------------------------------------------------------------------------


def to_dict(entry: Any, language: str | None = None) -> dict[str, Any]:
    """An entry as typed, for the database: only what was given (and the ``always`` fields).

    Cards typed with the Dutch letters are kept in the English codes ("Vh" as "QH"), the one
    notation stored (RULES.md §1), so the entry reads the same whichever page shows it.
    """
    if language is None:
        language = str(getattr(entry, "cards_language", "en"))
    stored: dict[str, Any] = {}
    for f in dataclasses.fields(entry):
        kind, value = _kind(f), getattr(entry, f.name)
        if kind == LANGUAGE:
            continue
        if kind in (RESULTS, ITEMS):
            stored[f.name] = [to_dict(item, language) for item in value]
        elif value is None or value is False:
            if f.metadata.get("always") or f.name == "player":
                stored[f.name] = value
        elif kind == CARDS or (kind == CARDS_OR_WHOLE and isinstance(value, str)):
            stored[f.name] = english_cards(value, language)
        elif kind == CARD_LIST:
            stored[f.name] = [english_cards(text, language) for text in value]
        else:
            stored[f.name] = value
    return stored


def from_dict(cls: type, data: Mapping[str, Any], result_type: type | None = None) -> Any:
    """A stored entry as the engine takes it."""
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind, value = _kind(f), data.get(f.name)
        if kind == LANGUAGE:
            continue  # stored in English, the default
        if kind in (RESULTS, ITEMS):
            of = result_type if kind == RESULTS else f.metadata.get("of")
            assert of is not None
            values[f.name] = tuple(from_dict(of, item) for item in value or ())
        elif kind == FLAG:
            values[f.name] = bool(value)
        elif kind == CARD_LIST:
            values[f.name] = tuple(value) if value is not None else None
        elif value is not None or f.default is dataclasses.MISSING:
            values[f.name] = value
    return cls(**values)


def typed_whole(text: str | None) -> int | None:
    """A whole number as a page's box holds it ("12"); None for an empty box or anything else
    (a sign, a fraction, a number past what a database keeps)."""
    text = (text or "").strip()
    if not text.isascii() or not text.isdigit() or len(text) > 10:
        return None
    number = int(text)
    return number if number < 2**31 else None


def alternatives(item: Any) -> tuple[str, ...]:
    """The ``alternative`` fields of a result that were given (at most one may be)."""
    return tuple(
        f.name
        for f in dataclasses.fields(item)
        if f.metadata.get("alternative") and getattr(item, f.name) is not None
    )


def describe(cls: type, result_type: type | None = None) -> dict[str, Any]:
    """Each field of the entry ``cls`` and its kind; the fields of a list of results or
    objects as a mapping of their own (``results`` those of ``result_type``)."""
    described: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        kind = _kind(f)
        if kind == RESULTS and result_type is not None:
            described[f.name] = describe(result_type)
        elif kind == ITEMS and f.metadata.get("of") is not None:
            described[f.name] = describe(f.metadata["of"])
        else:
            described[f.name] = kind
    return described


def typed_fields(cls: type) -> Mapping[str, str]:
    """Each field of ``cls`` with its kind: what a page needs to fill its own boxes."""
    return {f.name: _kind(f) for f in dataclasses.fields(cls)}


def own(value: Any, cls: type[T]) -> T:
    """``value`` (an entry or a result) as the game's own ``cls``: itself if it is one, else
    the same fields with the game's own left empty (a card row given as the shared one)."""
    if isinstance(value, cls):
        return value
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    return cls(
        **{f.name: getattr(value, f.name) for f in dataclasses.fields(value) if f.name in names}
    )


def check_stored(cls: type, data: Any, result_type: type | None = None, where: str = "") -> None:
    """A ShapeError unless ``data`` is an entry ``cls`` as ``to_dict`` stores it: only its
    fields, each of its kind (what a restore accepts of a game's own fields)."""
    if not isinstance(data, dict):
        raise ShapeError("not an object", where)
    kinds = {f.name: f for f in dataclasses.fields(cls)}
    for key, value in data.items():
        f = kinds.get(key)
        at = f"{where}.{key}" if where else str(key)
        if f is None:
            raise ShapeError("not a field of the entry", at)
        kind = _kind(f)
        if kind in (RESULTS, ITEMS):
            of = result_type if kind == RESULTS else f.metadata.get("of")
            if not isinstance(value, list) or of is None:
                raise ShapeError("not a list", at)
            for i, item in enumerate(value):
                check_stored(of, item, None, f"{at}[{i}]")
        elif value is not None and not _stored_kind(kind, value):
            raise ShapeError(f"not {kind}", at)


def _stored_kind(kind: str, value: Any) -> bool:
    if kind == FLAG:
        return isinstance(value, bool)
    if kind == WHOLE:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == NUMBER:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == CARD_LIST:
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if kind == CARDS_OR_WHOLE:
        return isinstance(value, str | int) and not isinstance(value, bool)
    return isinstance(value, str)


# --- A page's form: a game's own boxes as typed, and its values as its boxes show them ---------

# A box of a row as a form names it: results-<i>-<name>, or results-<i>-<name>-<j> for one of
# a list of boxes (Spin Rummy's melds).
_ROW_BOX = re.compile(r"^results-(\d+)-([a-z_]+)(?:-(\d+))?$")


def form_boxes(
    data: Mapping[str, Any], count: int, core_row: frozenset[str], core_top: frozenset[str]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The boxes of a posted form (``data``, by name) that are not the shared form's
    (``core_row``, ``core_top``): each of the ``count`` rows' own, and the form's others."""
    rows: list[dict[str, Any]] = [{} for _ in range(count)]
    top: dict[str, Any] = {}
    lists: dict[tuple[int, str], dict[int, str]] = {}
    for key in data:
        match = _ROW_BOX.match(key)
        if match is None:
            if not key.startswith("results-") and key not in core_top:
                top[key] = data.get(key)
            continue
        i, name, j = int(match.group(1)), match.group(2), match.group(3)
        if i >= count or name in core_row:
            continue
        if j is None:
            rows[i][name] = data.get(key)
        else:
            lists.setdefault((i, name), {})[int(j)] = data.get(key) or ""
    for (i, name), boxes in lists.items():
        rows[i][name] = [boxes[j] for j in sorted(boxes)]
    return rows, top


def kinds(entry_type: type, result_type: type) -> dict[str, Mapping[str, str]]:
    """Each field's kind of an entry (``entry``) and of its results (``results``)."""
    return {"entry": typed_fields(entry_type), "results": typed_fields(result_type)}


def shown(values: Mapping[str, Any], kinds: Mapping[str, str], language: str) -> dict[str, Any]:
    """A game's own stored values as its boxes show them: text, cards in the letters of
    ``language``, a list of texts for a list of boxes."""
    found: dict[str, Any] = {}
    for key, value in values.items():
        if value is None:
            found[key] = ""
        elif isinstance(value, list | tuple):
            found[key] = [cards_as_typed(str(v or ""), language) for v in value]
        elif kinds.get(key) in (CARDS, CARDS_OR_WHOLE) and isinstance(value, str):
            found[key] = cards_as_typed(value, language)
        else:
            found[key] = str(value)
    return found


# --- A refusal laid out on a page's form (ledger/web/nights/entry.py places it) ----------------


@dataclasses.dataclass
class RowErrors:
    """The engine's refusal laid out on the form: beside players, the 'out' choice, or on top,
    every problem placed (RULES.md §1); ``boxes``: which of a row's boxes the row's first
    problem was about (as the form names its boxes), where the page puts the focus."""

    rows: dict[int, list[str]] = dataclasses.field(default_factory=dict)
    out: list[str] = dataclasses.field(default_factory=list)
    general: list[str] = dataclasses.field(default_factory=list)
    boxes: dict[int, str] = dataclasses.field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.rows or self.out or self.general)

    def add_row(self, index: int, message: str, box: str | None = None) -> None:
        messages = self.rows.setdefault(index, [])
        if message not in messages:
            messages.append(message)
        if box is not None:
            self.boxes.setdefault(index, box)

    @property
    def count(self) -> int:
        """How many mistakes are marked on the form, beside rows and the 'out' choice."""
        return len({m for messages in self.rows.values() for m in messages} | set(self.out))

    @property
    def first_row(self) -> int | None:
        """The first row with a mistake, where the focus goes: it is first on the page."""
        return min(self.rows) if self.rows else None

    def focus_box(self, index: int) -> str:
        """Which of row ``index``'s boxes its problem is about ("" for none in particular)."""
        return self.boxes.get(index, "")
