"""The engine's values as JSON for the database, and back: what a hand's entry and outcome
are stored as (``State`` has its own ``to_dict`` and ``from_dict`` beside it in base.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ledger.rules.base import HandEntry, HandOutcome, ResultEntry
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
        results.append(item)
    return {"results": results, "out": entry.out, "rummy": entry.rummy}


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
            )
            for r in data.get("results", ())
        ),
        out=data.get("out"),
        rummy=bool(data.get("rummy", False)),
    )


def outcome_to_dict(outcome: HandOutcome) -> dict[str, Any]:
    """What the engine made of a hand, without the state (kept in its own column)."""
    return {
        "number": outcome.number,
        "dealer": outcome.dealer,
        "leader": outcome.leader,
        "results": [
            {
                "player": r.player,
                "cards": [c.code for c in r.cards],
                "spots": r.spots,
                "points": r.points,
                "sitting_out": r.sitting_out,
                "melds": [[c.code for c in m] for m in r.melds],
            }
            for r in outcome.results
        ],
        "out": outcome.out,
        "winners": list(outcome.winners),
        "movements": [
            {"from": m.source, "to": m.target, "units": m.units} for m in outcome.movements
        ],
        "pot_before": outcome.pot_before,
        "pot_after": outcome.pot_after,
    }
