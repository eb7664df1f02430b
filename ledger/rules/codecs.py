"""The stored format of a hand, in one place: the engine's outcome as JSON for the database
(a hand's entry is stored as its game declares it, ledger/rules/entries.py, through
``Game.entry_to_dict``; ``State`` has its own ``to_dict`` and ``from_dict`` beside it in
base.py), the shape of all a hand's row holds (``ENTRY``, ``OUTCOME``, ``STATE``,
``SEATING_OP``: a backup is checked against them; a game's own fields are JSON there, which
the replay checks against the game's declaration), and a player renamed in what is stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ledger.rules.base import HandOutcome, PlayerResult


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
    stored.update(outcome.more)
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
    item.update(r.more)
    return item


# --- The stored format of a hand -----------------------------------------------------------
# What the functions above and State.to_dict write into a hand's row (``entry``, ``outcome``,
# ``state_after``, ``seating``) and a session's (``state``, ``start_state``), described once:
# ledger/backup/ checks a backup file against these. A dict names its keys ("?" marks one that
# may be left out, "*" any name, "+" the shape of any other key: a game's own fields), a list
# its items' shape, a tuple the shapes a value may have; "name", "text", "int", "bool", "true",
# "id" (a session of the file) and "json" (any JSON value: a game's own, which its replay
# checks) are values, None is null.
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
    "+": "json",  # a game's own (ledger/rules/entries.py: the replay reads them as it declares)
}
# A card game's entry; a game's own fields beside (a team game's instead of the results).
ENTRY = {
    "results?": [RESULT],
    "out?": ("text", None),
    "rummy?": "bool",
    "ending?": "text",
    "+": "json",
}
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
            "+": "json",  # what a game says of a result beside these (a bid, the tricks)
        }
    ],
    "out": (NAMED, None),
    "winners": [NAMED],
    "movements": [MOVE],
    "pot_before": ("int", None),
    "pot_after": ("int", None),
    "ending?": "text",
    "+": "json",  # what a game says of the hand beside these (the teams' roem)
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
    "more?": "json",  # what a game keeps between hands beside these (the bids saved)
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
    """A stored entry with the name ``old`` as ``new`` in its results and who went out (an
    entry without them, a team game's, is as it is)."""
    found = {**entry}
    if "results" in entry:
        found["results"] = [
            {**r, "player": renamed(r["player"], old, new)} for r in entry["results"]
        ]
    if "out" in entry:
        found["out"] = renamed(entry["out"], old, new)
    return found
