"""The group's tab: its nights, its balances and the payments against it (API.md "The tab")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.rules import nights
from ledger.services.views.base import timestamp
from ledger.services.views.money import TransferView


@dataclass(frozen=True)
class TabPaymentView:
    """A payment against the tab (API.md "The tab")."""

    id: int
    source: str
    target: str
    amount: Decimal
    currency: str
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.source,
            "to": self.target,
            "amount": str(self.amount),
            "currency": self.currency,
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class TabNightView:
    """A night on the tab: its session, game, date and each player's part (exact)."""

    session: int
    game: str
    game_name: str
    at: datetime
    parts: Mapping[str, Decimal]
    number: int = 0  # the night's number ("Spot #2": ledger/rules/nights.py)
    own_name: str = ""  # the table's name for its game (Any game's), or ""
    correctable: bool = False  # a points game that ended by itself: its hands may change
    season: int | None = None  # a season closed onto the tab: its id; game_name its name
    evening: int | None = None  # a club evening closed onto the tab: its id; game_name its name

    @property
    def title(self) -> str:
        """The night for people, in English: "Spot #2"."""
        return nights.night_name(self.game_name, self.own_name, self.number)


@dataclass(frozen=True)
class TabBalanceView:
    player: str
    amount: Decimal  # exact, to the cent
    settled: Decimal  # in coins
    outstanding_amount: Decimal  # after the payments, in coins
    nights: int  # the nights on the tab this player played

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "amount": str(self.amount),
            "settled": str(self.settled),
            "outstanding_amount": str(self.outstanding_amount),
        }


@dataclass(frozen=True)
class TabView:
    """The group's tab in one currency (RULES.md §6a, API.md "The tab")."""

    currency: str
    balances: tuple[TabBalanceView, ...]
    transfers: tuple[TransferView, ...]
    nights: tuple[TabNightView, ...]
    payments: tuple[TabPaymentView, ...]

    @property
    def since(self) -> datetime | None:
        return self.nights[0].at if self.nights else None

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "balances": [b.to_json() for b in self.balances],
            "transfers": [
                {k: v for k, v in t.to_json().items() if k != "units"} for t in self.transfers
            ],
            "sessions": [n.session for n in self.nights if n.session],
            "seasons": [n.season for n in self.nights if n.season is not None],
            "evenings": [n.evening for n in self.nights if n.evening is not None],
            "payments": [p.to_json() for p in self.payments],
            "since": timestamp(self.since),
            "settled": not self.transfers,
        }
