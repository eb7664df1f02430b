"""The engine's values as JSON for the database: what a hand's outcome is stored as (a hand's
entry is stored as its game declares it, ledger/rules/entries.py, through ``Game.entry_to_dict``;
``State`` has its own ``to_dict`` and ``from_dict`` beside it in base.py)."""

from __future__ import annotations

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
