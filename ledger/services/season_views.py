"""What the seasons' services answer (API.md fourth edition, "Seasons"): frozen views with
``to_json()``, money as whole units and amounts as decimal strings, never a float."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from ledger.rules.league import SeasonTable, Standing
from ledger.rules.money import amount
from ledger.rules.rivals import Rivals
from ledger.services.views.base import timestamp
from ledger.services.views.money import BalanceView, TransferView

if TYPE_CHECKING:
    from ledger.services.league import RatingLine


@dataclass(frozen=True)
class SeasonSettlement:
    """A closed season's settle-up (RULES.md §13): each player's prize less the entry fee,
    and the fewest transfers that settle them, or none of its own on the tab."""

    currency: str
    unit_value: Decimal
    balances: tuple[BalanceView, ...]
    transfers: tuple[TransferView, ...]
    on_tab: bool = False
    # The transfers ticked as paid on the season's page, as (from, to): every phone sees them.
    paid: frozenset[tuple[str | None, str | None]] = frozenset()

    def is_paid(self, transfer: TransferView) -> bool:
        return (transfer.source, transfer.target) in self.paid

    def left(self, balance: BalanceView) -> Decimal:
        """What the transfers not yet ticked still move for the balance's player, in coins:
        to pay (negative) or to get (positive): "Ann, you owe €3.20." (RULES.md §20)."""
        left = balance.amount if balance.settled is None else balance.settled
        for t in self.transfers:
            if self.is_paid(t) and balance.player in (t.source, t.target):
                left += t.amount if t.source == balance.player else -t.amount
        return left

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency,
            "unit_value": str(self.unit_value),
            "on_tab": self.on_tab,
            "balances": [
                {k: v for k, v in b.to_json().items() if k in ("player", "units", "amount")}
                | {"settled": str(b.settled if b.settled is not None else b.amount)}
                for b in self.balances
            ],
            "transfers": [t.to_json() for t in self.transfers],
        }


@dataclass(frozen=True)
class SeasonView:
    """A season and its table: worked out from its nights while open, as it closed after."""

    id: int
    name: str
    game: str
    game_name: str | None  # Any game's name
    title: str  # the game as its pages name it: Any game's name, else the game's (English)
    first_day: date
    last_day: date
    options: Mapping[str, Any]
    status: str  # open | closed
    table: SeasonTable
    currency: str
    unit_value: Decimal
    closed_at: datetime | None = None
    on_tab: bool = False
    settlement: SeasonSettlement | None = None
    nights_left: int | None = None  # at the pace so far, while the period runs
    under_way: bool = False  # open, and today is in its period
    days_left: int | None = None  # days after today to its last day, while under way

    @property
    def closed(self) -> bool:
        return self.status == "closed"

    def money(self, units: int) -> Decimal:
        return amount(units, self.unit_value, self.currency)

    def balance_lines(self) -> tuple[tuple[str, Decimal, Decimal, Decimal], ...]:
        """The closed season's balances as the settle-up pays them: each player's prize (the
        booby prize in it), the entry fee paid in (negative) and the balance, the prize less
        the fee (RULES.md §13)."""
        if self.settlement is None:
            return ()
        won = {p.player: p.units for p in self.table.prizes}
        fee = -self.money(self.table.entry_fee)
        return tuple(
            (b.player, self.money(won.get(b.player, 0)), fee, b.amount)
            for b in self.settlement.balances
        )

    def standing_of(self, player: str) -> Standing | None:
        return next((s for s in self.table.standings if s.player == player), None)

    def summary_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "game_name": self.game_name,
            "from": self.first_day.isoformat(),
            "to": self.last_day.isoformat(),
            "options": dict(self.options),
            "status": self.status,
            "closed_at": timestamp(self.closed_at),
            "on_tab": self.on_tab,
        }

    def to_json(self) -> dict[str, Any]:
        table = self.table
        found = {
            **self.summary_json(),
            "standings": [_standing_json(s) for s in table.standings],
            "nights": [
                {
                    "session": n.session,
                    "number": n.number,
                    "started_at": timestamp(n.started_at),
                    "points": dict(n.points),
                    "places": dict(n.places),
                    "dropped": list(n.dropped),
                }
                for n in table.nights
            ],
            "pot": table.pot,
            "pot_amount": str(self.money(table.pot)),
            "prizes": [
                {
                    "player": p.player,
                    "units": p.units,
                    "booby": p.booby,
                    "amount": str(self.money(p.units)),
                }
                for p in table.prizes
            ],
            "nights_left": self.nights_left,
        }
        if self.settlement is not None:
            found["settlement"] = self.settlement.to_json()
        return found


def _standing_json(s: Standing) -> dict[str, Any]:
    return {
        "player": s.player,
        "rank": s.rank,
        "total": s.total,
        "nights": s.nights,
        "counted": s.counted,
        "best": s.best,
        "average": str(s.average),
        "below_line": s.below_line,
        "won": s.won,
    }


@dataclass(frozen=True)
class AddedSeason:
    """``create_season``'s answer: the season, and whether it is new (False: a repeated
    request_id answered the season that request made)."""

    season: SeasonView
    created: bool


@dataclass(frozen=True)
class PlayerSeason:
    """A player's place in one season (their page)."""

    season: SeasonView
    standing: Standing


@dataclass(frozen=True)
class PlayerLeague:
    """The league on a player's page: their seasons, rating lines and rivals."""

    seasons: tuple[PlayerSeason, ...]
    ratings: tuple[RatingLine, ...]
    rivals: Rivals
