"""A round of drinks or food and who owes what of it (RULES.md §6c, API.md "Rounds")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.services.views.base import timestamp


@dataclass(frozen=True)
class RoundView:
    """A round of drinks or food (RULES.md §6c, API.md "Rounds"): ``cents`` of the night's
    ``currency`` paid by ``paid_by`` for the people in ``shares`` (in the seating order it was
    recorded in), each owing their part; ``what`` it was, None when nobody said."""

    id: int
    what: str | None
    cents: int
    amount: Decimal
    currency: str
    paid_by: str
    shares: Mapping[str, int]
    parts: Mapping[str, Decimal]
    at: datetime

    @property
    def people(self) -> tuple[str, ...]:
        return tuple(self.shares)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "what": self.what,
            "amount": str(self.amount),
            "paid_by": self.paid_by,
            "for": list(self.shares),
            "shares": dict(self.shares),
            "parts": {p: str(part) for p, part in self.parts.items()},
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class AddedRound:
    """A round recorded, or (``created`` False) the one a resend of its request recorded."""

    round: RoundView
    created: bool
