"""The engine's values as JSON for the database, and back: what a hand's entry and outcome
are stored as (``State`` has its own ``to_dict`` and ``from_dict`` beside it in base.py)."""

from __future__ import annotations

from collections.abc import Mapping
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
