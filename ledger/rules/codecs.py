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
# ``state_after``, ``seating``) and a session's (``state``, ``start_state``), described once:
# ledger/backup/ checks a backup file against these. A dict names its keys ("?" marks one that
# may be left out, "*" any name), a list its items' shape, a tuple the shapes a value may have;
# "name", "text", "int", "bool", "true" and "id" (a session of the file) are values, None is
# null.
Shape = Any
NAMED = "name"
MOVE = {"from": (NAMED, None), "to": (NAMED, None), "units": "int"}
SEATING = {"seats": [NAMED], "dealer": NAMED}
# A buy-in (Kaluki, services/buy_ins.py): the replay makes it again and compares it.
BUY_IN = {"player": NAMED, "after_hand": "int", "units": "int", "total": "int"}
SEATING_OP = ({"join": NAMED, "after": NAMED}, {"leave": NAMED}, {"buy_in": BUY_IN})
RESULT = {
    "player": "text",
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
ENTRY = {"results": [RESULT], "out": ("text", None), "rummy": "bool", "ending?": "text"}
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


def same_name(value: Any, old: str) -> bool:
    """A stored name is ``old``, whatever its case and spaces around it."""
    return isinstance(value, str) and value.strip().casefold() == old.casefold()


def renamed(value: Any, old: str, new: str) -> Any:
    """``new`` for a stored name that is ``old``; anything else as it is."""
    return new if same_name(value, old) else value


def _keys(mapping: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return {renamed(k, old, new): v for k, v in mapping.items()}


def renamed_state(state: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return {
        **state,
        "seats": [renamed(p, old, new) for p in state["seats"]],
        "dealer": renamed(state["dealer"], old, new),
        "scores": _keys(state["scores"], old, new),
        "pot_antes": _keys(state.get("pot_antes", {}), old, new),
        "winners": [renamed(p, old, new) for p in state.get("winners", [])],
    }


def renamed_movements(moves: Sequence[Mapping[str, Any]], old: str, new: str) -> list[Any]:
    return [
        {**m, "from": renamed(m["from"], old, new), "to": renamed(m["to"], old, new)} for m in moves
    ]


def renamed_outcome(outcome: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return {
        **outcome,
        "dealer": renamed(outcome["dealer"], old, new),
        "leader": renamed(outcome["leader"], old, new),
        "results": [{**r, "player": renamed(r["player"], old, new)} for r in outcome["results"]],
        "out": renamed(outcome["out"], old, new),
        "winners": [renamed(p, old, new) for p in outcome["winners"]],
        "movements": renamed_movements(outcome["movements"], old, new),
    }


def renamed_entry(entry: Mapping[str, Any], old: str, new: str) -> dict[str, Any]:
    return {
        **entry,
        "results": [{**r, "player": renamed(r["player"], old, new)} for r in entry["results"]],
        "out": renamed(entry.get("out"), old, new),
    }
