"""A hand as scored: each player's result and the money that moved (API.md "Hand")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from ledger.services.views.base import timestamp


@dataclass(frozen=True)
class ResultView:
    """One player's result in a hand: the cards as codes ("QS", "10", "JK")."""

    player: str
    cards: tuple[str, ...]
    spots: int | None
    points: int | None
    sitting_out: bool
    melds: tuple[tuple[str, ...], ...] = ()
    # Rummy 500 (RULES.md §9): the points melded and the melded cards, where given; the
    # points left in hand are ``spots`` (answered as ``in_hand`` too).
    melded: int | None = None
    melded_cards: tuple[str, ...] = ()
    # What a game says of the result beside these (Boerenbridge's bid and tricks).
    more: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        found = {
            **self.more,
            "player": self.player,
            "cards": list(self.cards),
            "spots": self.spots,
            "points": self.points,
            "sitting_out": self.sitting_out,
            "melds": [list(m) for m in self.melds],
        }
        if self.melded is not None:
            found.update(
                melded=self.melded, in_hand=self.spots, melded_cards=list(self.melded_cards)
            )
        return found


@dataclass(frozen=True)
class MovementView:
    """Money moving: ``source``/``target`` None is the pot."""

    source: str | None
    target: str | None
    units: int

    def to_json(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "units": self.units}


@dataclass(frozen=True)
class HandView:
    """One hand as scored (API.md "Hand"), with the entry as typed and its revision."""

    number: int
    dealer: str
    leader: str
    results: tuple[ResultView, ...]
    out: str | None
    winners: tuple[str, ...]
    movements: tuple[MovementView, ...]  # antes and the pot included
    pot_before: int | None
    pot_after: int | None
    scores_after: Mapping[str, int]
    entry: Mapping[str, Any]  # as typed
    request_id: str | None
    revision: int  # 1 as entered, +1 for every correction
    created_at: datetime
    updated_at: datetime
    ending: str | None = None  # Gin Rummy: knock, gin, big_gin or draw
    # What a game says of the hand beside these (Klaverjassen's teams: points, roem, nat).
    more: Mapping[str, Any] = field(default_factory=dict)

    @property
    def payments(self) -> tuple[MovementView, ...]:
        return tuple(m for m in self.movements if m.source is not None and m.target is not None)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "leader": self.leader,
            "results": [r.to_json() for r in self.results],
            "out": self.out,
            "winners": list(self.winners),
            "payments": [m.to_json() for m in self.payments],
            "movements": [m.to_json() for m in self.movements],
            "pot_before": self.pot_before,
            "pot_after": self.pot_after,
            "scores_after": dict(self.scores_after),
            "entry": dict(self.entry),
            "request_id": self.request_id,
            "revision": self.revision,
            "created_at": timestamp(self.created_at),
            "updated_at": timestamp(self.updated_at),
            **({"ending": self.ending} if self.ending is not None else {}),
            **self.more,
        }


@dataclass(frozen=True)
class AddedHand:
    """``add_hand``'s answer: the hand, and whether it is new (False: a repeated request_id)."""

    hand: HandView
    created: bool
