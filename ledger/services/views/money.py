"""A night's money: the settlement's balances and transfers, the payments made at the table
and a player's bank account (API.md "Settlement", "Payments").
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from ledger.services.views.base import timestamp
from ledger.services.views.rounds import RoundView


@dataclass(frozen=True)
class BalanceView:
    """A player's money for the night: ``amount`` is exact (units × unit value); ``settled`` is
    what the settle-up pays or receives for it in the currency's coins (API.md "Coins");
    ``outstanding`` the units still to pay (negative) or receive (positive) after the payments
    made, and ``outstanding_amount`` what the transfers left move for it, in coins."""

    player: str
    units: int
    amount: Decimal
    settled: Decimal | None = None  # None: the same as amount
    outstanding: int | None = None  # None: the same as units (nothing paid)
    outstanding_amount: Decimal | None = None
    # RULES.md §2: the units of the pot this player keeps (counted in ``units``, not won),
    # and of the pot they brought back at the night's start (their score started at minus it).
    pot_kept: int = 0
    # RULES.md §6c, a night with rounds: what the rounds give the player, and the total
    # (``amount`` plus ``rounds``) that ``settled`` and ``outstanding_amount`` then settle.
    rounds: Decimal | None = None
    total: Decimal | None = None
    brought_back: int = 0
    # What the player won or lost on the night, in units: ``units`` without the pot kept or
    # brought back (RULES.md §2, worked out by the settlement: rules/keeper.py). None on a
    # night without game money (a points game with no stake settling its rounds alone,
    # RULES.md §6c): it has no winnings, as its standings say (services/night.py).
    winnings: int | None = None

    @property
    def exact(self) -> Decimal:
        """What is settled for the player, exactly, before rounding to the coin: the amount,
        or on a night with rounds the total (RULES.md §6c)."""
        return self.amount if self.total is None else self.total

    @property
    def left(self) -> Decimal:
        """What the transfers still move for the player, in coins: paid (negative) or received
        (positive) after the payments made ("you owe", "you are owed": RULES.md §20)."""
        settled = self.amount if self.settled is None else self.settled
        return settled if self.outstanding_amount is None else self.outstanding_amount

    def to_json(self) -> dict[str, Any]:
        settled = self.amount if self.settled is None else self.settled
        outstanding = self.units if self.outstanding is None else self.outstanding
        left = self.left
        found = {
            "player": self.player,
            "units": self.units,
            "amount": str(self.amount),
            "settled": str(settled),
            "outstanding": outstanding,
            "outstanding_amount": str(left),
            "pot_kept": self.pot_kept,
            "brought_back": self.brought_back,
            "winnings": self.winnings,
        }
        if self.total is not None:
            # The totals are settled in the currency: no units are outstanding as such.
            found.update(outstanding=None, rounds=str(self.rounds), total=str(self.total))
        if self.winnings is None:
            # A night without game money (RULES.md §6c: a points game with no stake settling
            # its rounds alone) has no units nor game amount: null, as its standings' balance,
            # beside the rounds and the total it settles.
            found.update(units=None, amount=None)
        return found


@dataclass(frozen=True)
class PaymentView:
    """Money handed over at the table to settle up (API.md "Payments"), recorded at ``at``."""

    id: int
    source: str
    target: str
    units: int | None  # None: given in the currency (a night with rounds, RULES.md §6c)
    amount: Decimal
    at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.source,
            "to": self.target,
            "units": self.units,
            "amount": str(self.amount),
            "at": timestamp(self.at),
        }


@dataclass(frozen=True)
class TransferView:
    """A payment at the end of the night; None is the pot (a pot carried on, or refunded)."""

    source: str | None
    target: str | None
    units: int | None  # None: a night with rounds settles its totals in the currency (§6c)
    amount: Decimal
    # RULES.md §6b: the QR code's text for a transfer in euros to a player with an account.
    epc: str | None = None

    def to_json(self) -> dict[str, Any]:
        found = {
            "from": self.source,
            "to": self.target,
            "units": self.units,
            "amount": str(self.amount),
        }
        return found if self.epc is None else {**found, "epc": self.epc}


@dataclass(frozen=True)
class SettlementView:
    """Who pays whom (API.md "Settlement"): the fewest transfers that square every balance
    still outstanding once the payments made at the table are counted."""

    session: int
    status: str
    currency: str
    unit_value: Decimal
    balances: tuple[BalanceView, ...]
    pot: int
    pot_amount: Decimal
    transfers: tuple[TransferView, ...]  # what is still outstanding after the payments
    payments: tuple[PaymentView, ...] = ()  # oldest first
    pot_keeper: str | None = None  # who the pot's money is paid to (RULES.md §2)
    on_tab: bool = False  # RULES.md §6a: the night is paid with the tab, no transfers of its own
    rounds: tuple[RoundView, ...] = ()  # RULES.md §6c: the balances then carry their totals

    def to_json(self) -> dict[str, Any]:
        return {
            "on_tab": self.on_tab,
            "session": self.session,
            "status": self.status,
            "currency": self.currency,
            "unit_value": str(self.unit_value),
            "balances": [b.to_json() for b in self.balances],
            "pot": self.pot,
            "pot_amount": str(self.pot_amount),
            "transfers": [t.to_json() for t in self.transfers],
            "payments": [p.to_json() for p in self.payments],
            "pot_keeper": self.pot_keeper,
            "rounds": [r.to_json() for r in self.rounds],
        }

    @property
    def with_rounds(self) -> bool:
        """Whether the totals are settled in the currency (RULES.md §6c): the night has
        rounds, or a payment given in the currency."""
        return any(b.total is not None for b in self.balances)


@dataclass(frozen=True)
class AccountView:
    """A player's bank account (RULES.md §6b)."""

    iban: str
    name: str

    def to_json(self) -> dict[str, Any]:
        return {"iban": self.iban, "name": self.name}
