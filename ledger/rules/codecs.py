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
# ``state_after``, ``seating``) and a session's (``state``, ``start_state``, ``finish``),
# described once: ledger/backup/ checks a backup file against these, and a rename (below)
# finds the players' names by them. A dict names its keys ("?" marks one that may be left
# out, "*" any name, "+" the shape of any other key: a game's own fields), a list its items'
# shape, a tuple the shapes a value may have; "name", TYPED_NAME, "text", "int", "bool",
# "true", "id" (a session of the file) and "json" (any JSON value: a game's own, which its
# replay checks) are values, None is null.
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
# A game's own call between hands (services/calls.py): the replay makes it again.
CALL = {"call": "text", "body": "json"}
SEATING_OP = ({"join": NAMED, "after": NAMED}, {"leave": NAMED}, {"buy_in": BUY_IN}, CALL)
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
    "+": "json",  # a game's own (ledger/rules/entries.py: the replay reads them as it declares)
}
# A card game's entry; a game's own fields beside (a team game's instead of the results).
ENTRY = {
    "results?": [RESULT],
    "out?": (TYPED_NAME, None),
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
    "more?": "json",  # what a game keeps between hands beside these (the bids saved)
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
        other = shape.get("+")  # a game's own fields: renamed wherever a name is in them
        return {
            k: renamed_as(v, keys[k] if k in keys else other, old, new)
            if k in keys or other is not None
            else v
            for k, v in value.items()
        }
    if shape == "json":
        return renamed_deep(value, old, new)
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


def renamed_deep(value: Any, old: str, new: str) -> Any:
    """``value`` with the name ``old`` as ``new`` wherever it is a key or a text: for what a
    game keeps of its own (a bid by player, a team's players), which only it reads."""
    if isinstance(value, dict):
        return {renamed(k, old, new): renamed_deep(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed_deep(v, old, new) for v in value]
    return renamed(value, old, new)


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
