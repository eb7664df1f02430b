"""A running tab across nights (RULES.md §6a), worked out from its nights and its payments.

Every night's part is its balance in units times its unit value, kept exactly in millionths
of the currency (a unit value has at most six decimals, so that is always a whole number):
nights played at different unit values add up exactly. The tab's balances are then rounded
to the currency's coin without losing money, the payments (in the currency's cents) are
taken off, and what is outstanding is settled in the fewest transfers (RULES.md §6).

The tab is settled when nothing is outstanding any more; the next night starts a new one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ledger.rules.errors import RuleError
from ledger.rules.money import coin, format_amount, minor_units, settle_amounts, smallest_coin
from ledger.rules.settle import PartyT, Transfer

# The tab's exact amounts are whole millionths of the currency.
MICRO = Decimal("0.000001")
_PER_UNIT = 10**6


@dataclass(frozen=True)
class TabNight:
    """A night on the tab: its session, when it was finished, and each player's part in
    millionths of the currency (positive: owed to them). A season closed onto the tab is on
    it the same way, from when it closed."""

    session: int
    at: datetime
    parts: Mapping[str, int]
    season: int | None = None  # a season closed onto the tab (RULES.md §13); session 0
    evening: int | None = None  # a club evening closed onto the tab (RULES.md §19); session 0


@dataclass(frozen=True)
class TabPaid:
    """A payment against the tab: ``source`` paid ``target`` ``cents`` at ``at``."""

    id: int
    at: datetime
    source: str
    target: str
    cents: int


@dataclass(frozen=True)
class Tab:
    """The tab of one currency now: its nights and payments since it was last settled, every
    player's exact balance (millionths), that balance in coins (``settled``), what is still
    outstanding after the payments (coins) and the transfers that settle it."""

    currency: str
    nights: tuple[TabNight, ...]
    payments: tuple[TabPaid, ...]
    exact: Mapping[str, int]
    settled: Mapping[str, Decimal]
    outstanding: Mapping[str, Decimal]
    transfers: tuple[tuple[Transfer, Decimal], ...]

    @property
    def players(self) -> list[str]:
        return sorted(self.exact, key=lambda p: (-self.exact[p], p))

    def amount(self, player: str) -> Decimal:
        """The exact balance written to the currency's cents (half to even)."""
        places = minor_units(self.currency)
        return _micro(self.exact[player]).quantize(Decimal(1).scaleb(-places))


def night_part(units: int, unit_value: Decimal) -> int:
    """A balance of ``units`` at ``unit_value`` in millionths of the currency, exactly."""
    exact = units * Fraction(unit_value) * _PER_UNIT
    if exact.denominator != 1:
        raise ValueError(f"A unit value has at most six decimals, not {unit_value}.")
    return exact.numerator


def work_out(currency: str, nights: Sequence[TabNight], payments: Sequence[TabPaid]) -> Tab | None:
    """The tab now: the nights and payments, oldest first, since the last time it was
    settled (a night coming after a settled tab starts a new one). None with nothing on it."""
    events: list[tuple[datetime, int, Any]] = [(n.at, 1, n) for n in nights]
    events += [(p.at, 0, p) for p in payments]
    events.sort(key=lambda e: (e[0], e[1]))
    now: list[TabNight] = []
    paid: list[TabPaid] = []
    for _, kind, event in events:
        if kind == 1:
            if paid and not _tab(currency, now, paid).transfers:
                now, paid = [], []
            now.append(event)
        else:
            paid.append(event)
    if not now and not paid:
        return None
    return _tab(currency, now, paid)


def _tab(currency: str, nights: Sequence[TabNight], payments: Sequence[TabPaid]) -> Tab:
    exact: dict[str, int] = {}
    for night in nights:
        for player, part in night.parts.items():
            exact[player] = exact.get(player, 0) + part
    for p in payments:
        exact.setdefault(p.source, 0)
        exact.setdefault(p.target, 0)
    paid = [(p.source, p.target, p.cents) for p in payments]
    settled, outstanding, transfers = settle_exact(currency, exact, paid)
    return Tab(currency, tuple(nights), tuple(payments), exact, settled, outstanding, transfers)


def settle_exact(
    currency: str,
    exact: Mapping[PartyT, int],
    payments: Sequence[tuple[PartyT, PartyT, int]] = (),
) -> tuple[dict[PartyT, Decimal], dict[PartyT, Decimal], tuple[tuple[Transfer, Decimal], ...]]:
    """Exact balances in millionths of ``currency`` (adding up to zero) settled in its coins
    (RULES.md §6): each balance rounded to coins without losing money (``settled``), the
    payments made (``(payer, payee, cents)``) taken off (``outstanding``), and the fewest
    transfers that settle what is left, each with its amount. Every party a payment names must
    be among ``exact``. A transfer's ``units`` are the currency's cents."""
    settled, _ = settle_amounts(exact, MICRO, currency)
    places = minor_units(currency)
    left = {p: int(a.scaleb(places)) for p, a in settled.items()}
    for source, target, cents in payments:
        left[source] += cents
        left[target] -= cents
    outstanding, transfers = settle_amounts(left, coin(currency), currency)
    return settled, outstanding, transfers


def tab_cents(text: Any, currency: str) -> int:
    """An amount paid, as typed (``"0.38"``, ``"0,38"``, or a whole number), in the
    currency's cents: positive and a whole number of cents (RuleError on ``amount``)."""
    if isinstance(text, int) and not isinstance(text, bool):
        value = Decimal(text)
    elif isinstance(text, str) and 0 < len(text.strip()) <= 20:
        cleaned = text.strip()
        if "." not in cleaned and cleaned.count(",") == 1:
            cleaned = cleaned.replace(",", ".")
        try:
            value = Decimal(cleaned)
        except ArithmeticError:
            value = Decimal("NaN")
    else:
        raise RuleError('Give the amount paid as text, like "0.38".', field="amount")
    places = minor_units(currency)
    if not value.is_finite() or value <= 0 or value > 10**7:
        raise RuleError("Give the amount paid as an amount above 0, like 0.38.", field="amount")
    cents = value.scaleb(places)
    if cents != cents.to_integral_value():
        raise RuleError(
            "An amount in {currency} has at most {places} decimals.",
            field="amount",
            currency=currency,
            places=places,
        )
    return int(cents)


def check_payment(tab: Tab | None, source: str, target: str, cents: int) -> None:
    """Refuse a payment that would make either player owe or be owed more than before
    (RULES.md §2, §6a), naming the amount still due; less than one coin over is allowed
    where the coin is bigger than a cent."""
    currency = tab.currency if tab is not None else ""
    check_paid(tab.outstanding if tab else {}, currency, source, target, cents)


def check_paid(
    outstanding: Mapping[str, Decimal], currency: str, source: str, target: str, cents: int
) -> None:
    """Refuse a payment of ``cents`` from ``source`` to ``target`` that would make either
    owe or be owed more than ``outstanding`` (coins) says, naming what is still due (RuleError
    on ``amount``): the tab's payments and a night's with rounds (RULES.md §6a, §6c)."""
    places = minor_units(currency)
    left = {p: int(a.scaleb(places)) for p, a in outstanding.items()}
    owes, owed = -left.get(source, 0), left.get(target, 0)
    slack = int(smallest_coin(currency).scaleb(places)) - 1
    if owes > 0 and owed > 0 and cents <= owes + slack and cents <= owed + slack:
        return
    due = max(0, min(owes, owed))
    params: dict[str, Any] = {
        "payer": source,
        "payee": target,
        "due": format_amount(Decimal(due).scaleb(-places), currency),
        "paid": format_amount(Decimal(cents).scaleb(-places), currency),
    }
    if due == 0:
        raise RuleError(
            "Nothing is still due from {payer} to {payee}: a payment of {paid} would make one "
            "of them owe or be owed more than before.",
            field="amount",
            **params,
        )
    raise RuleError(
        "Only {due} is still due from {payer} to {payee}: a payment of {paid} would make one "
        "of them owe or be owed more than before.",
        field="amount",
        **params,
    )


def _micro(value: int) -> Decimal:
    return Decimal(value).scaleb(-6)
