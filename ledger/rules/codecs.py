"""The stored format of a hand, in one place: the engine's values as JSON for the database
and back (what a hand's entry and outcome are stored as; ``State`` has its own ``to_dict`` and
``from_dict`` beside it in base.py), the shape of all a hand's row holds (``ENTRY``,
``OUTCOME``, ``STATE``, ``SEATING_OP``: a backup is checked against them), and a player
renamed in what is stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.rules.base import HandEntry, HandOutcome, PlayerResult, ResultEntry
from ledger.rules.cards import english_cards


def entry_to_dict(entry: HandEntry) -> dict[str, Any]:
    """A hand entry as typed, for the database: only what was given.

    Cards typed with the Dutch letters are kept in the English codes ("Vh" as "QH"), the one
    notation stored (RULES.md §1), so the entry reads the same whichever page shows it.
    """
    language = entry.cards_language
    results = []
    for r in entry.results:
        item: dict[str, Any] = {"player": r.player}
        if r.cards is not None:
            item["cards"] = english_cards(r.cards, language)
        if r.spots is not None:
            item["spots"] = r.spots
        if r.melds is not None:
            item["melds"] = [english_cards(meld, language) for meld in r.melds]
        if r.sitting_out:
            item["sitting_out"] = True
        item.update(_newer_fields(r, language))
        results.append(item)
    stored: dict[str, Any] = {"results": results, "out": entry.out, "rummy": entry.rummy}
    if entry.ending is not None:
        stored["ending"] = entry.ending
    return stored


def _newer_fields(r: ResultEntry, language: str) -> dict[str, Any]:
    """The fields of the games after the first four (RULES.md §8–§12), only where given, so
    an entry of the first four is stored as before."""
    item: dict[str, Any] = {}
    if r.melded is not None:
        item["melded"] = english_cards(r.melded, language)
    if r.low_aces is not None:
        item["low_aces"] = r.low_aces
    if r.melded_points is not None:
        item["melded_points"] = r.melded_points
    if r.points is not None:
        item["points"] = r.points
    return item


def entry_from_dict(data: Mapping[str, Any]) -> HandEntry:
    """A stored hand entry as the engine takes it."""
    return HandEntry(
        results=tuple(
            ResultEntry(
                player=r["player"],
                cards=r.get("cards"),
                spots=r.get("spots"),
                melds=tuple(r["melds"]) if r.get("melds") is not None else None,
                sitting_out=bool(r.get("sitting_out", False)),
                melded=r.get("melded"),
                low_aces=r.get("low_aces"),
                melded_points=r.get("melded_points"),
                points=r.get("points"),
            )
            for r in data.get("results", ())
        ),
        out=data.get("out"),
        rummy=bool(data.get("rummy", False)),
        ending=data.get("ending"),
    )


def outcome_to_dict(outcome: HandOutcome) -> dict[str, Any]:
    """What the engine made of a hand, without the state (kept in its own column).

    Gin Rummy's ``ending`` and Rummy 500's ``melded`` (points) and ``melded_cards`` are
    added only where a game gives them, so the first four games' outcomes read as before.
    """
    stored: dict[str, Any] = {
        "number": outcome.number,
        "dealer": outcome.dealer,
        "leader": outcome.leader,
        "results": [_result_to_dict(r) for r in outcome.results],
        "out": outcome.out,
        "winners": list(outcome.winners),
        "movements": [
            {"from": m.source, "to": m.target, "units": m.units} for m in outcome.movements
        ],
        "pot_before": outcome.pot_before,
        "pot_after": outcome.pot_after,
    }
    if outcome.ending is not None:
        stored["ending"] = outcome.ending
    return stored


def _result_to_dict(r: PlayerResult) -> dict[str, Any]:
    item: dict[str, Any] = {
        "player": r.player,
        "cards": [c.code for c in r.cards],
        "spots": r.spots,
        "points": r.points,
        "sitting_out": r.sitting_out,
        "melds": [[c.code for c in m] for m in r.melds],
    }
    if r.melded is not None:
        item["melded"] = r.melded
        item["melded_cards"] = [c.code for c in r.melded_cards]
    return item


# --- The stored format of a hand -----------------------------------------------------------
# What the functions above and State.to_dict write into a hand's row (``entry``, ``outcome``,
# ``state_after``, ``seating``) and a session's (``state``, ``start_state``, ``finish``),
# described once: ledger/backup/ checks a backup file against these, and a rename (below)
# finds the players' names by them. A dict names its keys ("?" marks one that may be left
# out, "*" any name), a list its items' shape, a tuple the shapes a value may have; "name",
# TYPED_NAME, "text", "int", "bool", "true" and "id" (a session of the file) are values, None
# is null.
Shape = Any
NAMED = "name"


class TypedName(str):
    """A player's name as typed in an entry: any text to a backup's check (the engine finds
    the player it names, case and spaces aside), a name to a rename."""


TYPED_NAME = TypedName("text")
MOVE = {"from": (NAMED, None), "to": (NAMED, None), "units": "int"}
SEATING = {"seats": [NAMED], "dealer": NAMED}
# A buy-in (Kaluki, services/buy_ins.py): the replay makes it again and compares it.
BUY_IN = {"player": NAMED, "after_hand": "int", "units": "int", "total": "int"}
SEATING_OP = ({"join": NAMED, "after": NAMED}, {"leave": NAMED}, {"buy_in": BUY_IN})
RESULT = {
    "player": TYPED_NAME,
    "cards?": "text",
    "spots?": "int",
    "melds?": ["text"],
    "sitting_out?": "true",
    # The games of RULES.md §8–§12, where given.
    "melded?": "text",
    "low_aces?": "int",
    "melded_points?": "int",
    "points?": "int",
}
ENTRY = {"results": [RESULT], "out": (TYPED_NAME, None), "rummy": "bool", "ending?": "text"}
OUTCOME = {
    "number": "int",
    "dealer": NAMED,
    "leader": NAMED,
    "results": [
        {
            "player": NAMED,
            "cards": ["text"],
            "spots": ("int", None),
            "points": ("int", None),
            "sitting_out": "bool",
            "melds": [["text"]],
            "melded?": "int",
            "melded_cards?": ["text"],
        }
    ],
    "out": (NAMED, None),
    "winners": [NAMED],
    "movements": [MOVE],
    "pot_before": ("int", None),
    "pot_after": ("int", None),
    "ending?": "text",
}
# A finished session's ``finish``: what its leftover pot did and the refunds it made.
FINISH = {"leftover_pot": ("text", None), "movements": [MOVE]}
SCORES = {"*": "int"}
STATE = {
    "seats": [NAMED],
    "dealer": NAMED,
    "scores": SCORES,
    "hands_played": "int",
    "pot": "int",
    "carried_in": "int",
    "pot_antes": SCORES,
    "finished": "bool",
    "winners": [NAMED],
    "totals?": SCORES,
    "wins?": SCORES,
    "eliminated?": SCORES,
    "buy_ins?": {"*": ["int"]},
}


# --- A player renamed in what is stored (ledger/services/groups.py renames a player) ------
# Driven by the shapes above: every value they mark NAMED (or TYPED_NAME) and every key of a
# "*" mapping is a player's name, whatever game wrote it, so a field a game adds to its state
# (and to STATE, or a backup would refuse it) is renamed with the rest.


def same_name(value: Any, old: str) -> bool:
    """A stored name is ``old``, whatever its case and spaces around it."""
    return isinstance(value, str) and value.strip().casefold() == old.casefold()


def renamed(value: Any, old: str, new: str) -> Any:
    """``new`` for a stored name that is ``old``; anything else as it is."""
    return new if same_name(value, old) else value


def renamed_as(value: Any, shape: Shape, old: str, new: str) -> Any:
    """``value``, of ``shape``, with every name in it that is ``old`` made ``new``."""
    if isinstance(shape, TypedName) or shape == NAMED:
        return renamed(value, old, new)
    if isinstance(shape, tuple):
        fitting = next((s for s in shape if _fits(value, s)), None)
        return value if fitting is None else renamed_as(value, fitting, old, new)
    if isinstance(shape, list) and isinstance(value, list):
        return [renamed_as(item, shape[0], old, new) for item in value]
    if isinstance(shape, dict) and isinstance(value, dict):
        if "*" in shape:
            return {
                renamed(k, old, new): renamed_as(v, shape["*"], old, new) for k, v in value.items()
            }
        keys = {k.rstrip("?"): s for k, s in shape.items()}
        return {k: renamed_as(v, keys[k], old, new) if k in keys else v for k, v in value.items()}
    return value


def _fits(value: Any, shape: Shape) -> bool:
    """Which of a tuple's shapes a value has, as far as a rename needs to tell them apart:
    a mapping by its keys (a seating op's "join", "leave" or "buy_in")."""
    if shape is None:
        return value is None
    if isinstance(shape, tuple):
        return any(_fits(value, s) for s in shape)
    if isinstance(shape, list):
        return isinstance(value, list)
    if isinstance(shape, dict):
        keys = {k.rstrip("?") for k in shape}
        return isinstance(value, dict) and ("*" in shape or set(value) <= keys)
    if isinstance(shape, TypedName) or shape in (NAMED, "text"):
        return isinstance(value, str)
    return False  # a number or a flag: nothing to rename


def renamed_state(state: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return dict(renamed_as(state, STATE, old, new))


def renamed_outcome(outcome: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return dict(renamed_as(outcome, OUTCOME, old, new))


def renamed_entry(entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return dict(renamed_as(entry, ENTRY, old, new))


def renamed_seating(ops: Sequence[Mapping[str, Any]], old: str, new: str) -> list[Any]:
    """A session's or a hand's seating ops (joins, leaves, Kaluki's buy-ins)."""
    return list(renamed_as(list(ops), [SEATING_OP], old, new))


def renamed_finish(finish: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    """A finished session's ``finish``: the pot's refunds (RULES.md §2)."""
    return dict(renamed_as(finish, FINISH, old, new))
