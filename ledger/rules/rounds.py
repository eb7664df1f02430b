"""Rounds of drinks and food in the night's settle-up (RULES.md §6c). Pure: no database.

A round is what somebody paid for others at the table: an amount in the night's currency, in
whole cents, paid by one player of the night for one or more of them, each with a share (1
unless said). ``split`` gives each person's part exactly: the amount times their share over
the total of the shares, rounded down, the cents left over one each in the night's seating
order. Each owes their part to the payer, so a round gives the payer what they paid less
their own part, and everyone else minus theirs (``given``).

``settle_night`` nets the game's money (exact, in millionths of the currency: the tab's
measure, ledger/rules/tab.py) and the rounds into each player's total and settles the totals
as the tab does: rounded to the coin without losing money, the payments made taken off, the
fewest transfers (RULES.md §6).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, TypeVar

from ledger.rules.errors import Problems, RuleError
from ledger.rules.money import minor_units
from ledger.rules.names import code_point, hidden_character
from ledger.rules.settle import Party, PartyT, Transfer
from ledger.rules.tab import settle_exact

T = TypeVar("T")

WHAT_LENGTH = 60
# The most a round may cost, in the currency's whole units: 10,000.00.
MOST = 10_000
# The biggest share one person may have (a double is 2): far beyond any table's rounds.
MOST_SHARE = 100
# A cent in millionths of the currency, the measure the game's money is kept in exactly.
_MICRO_PER_CENT: Mapping[int, int] = {places: 10 ** (6 - places) for places in range(7)}


@dataclass(frozen=True)
class Round:
    """A round: ``cents`` (the currency's smallest amounts on paper) paid by ``paid_by`` for
    the people in ``shares``, each with their share (at least 1), in the night's seating
    order when it was recorded (``read_round`` keeps them so; the odd cents follow it);
    ``what`` it was ("a round", "chips"), or None when nobody said."""

    paid_by: str
    cents: int
    shares: Mapping[str, int]
    what: str | None = None

    @property
    def people(self) -> tuple[str, ...]:
        """Who the round was for, in the night's seating order."""
        return tuple(self.shares)


def split(cents: int, shares: Mapping[str, int], order: Sequence[str]) -> dict[str, int]:
    """Each person's part of ``cents`` (RULES.md §6c): ``cents × share ÷ total`` rounded down,
    then the cents left over one each to the people in seating order (``order``, from the
    first seat; anyone not in it after, by name). The parts add up to ``cents`` exactly."""
    if cents < 0 or not shares or any(s < 1 for s in shares.values()):
        raise ValueError("A round splits a positive amount among people with shares of 1 up.")
    people = seated(shares, order)
    total = sum(shares.values())
    parts = {p: cents * shares[p] // total for p in people}
    left = cents - sum(parts.values())  # fewer than the people: each remainder is below 1
    for p in people[:left]:
        parts[p] += 1
    return parts


def seated(names: Mapping[str, Any] | Sequence[str], order: Sequence[str]) -> list[str]:
    """``names`` in the night's seating order, anyone not seated after them by name."""
    place = {p: i for i, p in enumerate(order)}
    return sorted(names, key=lambda p: (place.get(p, len(place)), p))


def parts(one: Round) -> dict[str, int]:
    """The round's parts, by person, in the seating order it was recorded in (its shares'
    order): a player who joins the table later never moves another's odd cent."""
    return split(one.cents, one.shares, list(one.shares))


def given(rounds: Sequence[Round], order: Sequence[str]) -> dict[str, int]:
    """What the rounds give each player, in cents: what they paid less their own parts
    (negative: they owe it). Everyone in ``order`` is in the answer; it adds up to zero."""
    net = dict.fromkeys(order, 0)
    for one in rounds:
        net[one.paid_by] = net.get(one.paid_by, 0) + one.cents
        for person, part in parts(one).items():
            net[person] = net.get(person, 0) - part
    return net


@dataclass(frozen=True)
class NightMoney:
    """A night's money with its rounds: per party (a player; None is a pot carried on with
    nobody to keep it) the game's money exactly (millionths), what the rounds give (cents),
    the total in coins (``settled``) and what is still outstanding after the payments made,
    and the fewest transfers that settle it, each with its amount."""

    currency: str
    game: Mapping[Party, int]
    rounds: Mapping[str, int]
    settled: Mapping[Party, Decimal]
    outstanding: Mapping[Party, Decimal]
    transfers: tuple[tuple[Transfer, Decimal], ...]

    def total(self, party: Party) -> int:
        """The party's total, exact in millionths: its game money plus its rounds."""
        rounds = self.rounds.get(party, 0) if party is not None else 0
        return self.game.get(party, 0) + cents_in_micro(rounds, self.currency)


def cents_in_micro(cents: int, currency: str) -> int:
    """``cents`` of ``currency`` (its smallest amounts on paper) in millionths of it."""
    return cents * _MICRO_PER_CENT[minor_units(currency)]


def night_totals(
    currency: str, game: Mapping[PartyT, int], rounds: Sequence[Round], order: Sequence[str]
) -> dict[PartyT | str, int]:
    """Each party's total exactly, in millionths of ``currency``: its game money (``game``,
    millionths, the pot a party as None) plus what the ``rounds`` give it (RULES.md §6c). The
    night's settle-up and the tab (a night finished onto it carries its rounds) both add up
    a night so."""
    exact: dict[PartyT | str, int] = {party: money for party, money in game.items()}
    for player, cents in given(rounds, order).items():
        exact[player] = exact.get(player, 0) + cents_in_micro(cents, currency)
    return exact


def settle_night(
    currency: str,
    game: Mapping[PartyT, int],
    rounds: Sequence[Round],
    order: Sequence[str],
    payments: Sequence[tuple[str, str, int]] = (),
) -> NightMoney:
    """The night's totals settled (RULES.md §6c): ``game`` is each party's game money in
    millionths of ``currency`` (adding up to zero, the pot a party as None), ``rounds`` the
    night's rounds, ``order`` its seating order, ``payments`` the payments made at the table
    as ``(payer, payee, cents)``. The totals add up to zero; the transfers settle them."""
    net = given(rounds, order)
    money: dict[Party, int] = {party: units for party, units in game.items()}
    exact = night_totals(currency, money, rounds, order)
    for source, target, _ in payments:
        exact.setdefault(source, 0)
        exact.setdefault(target, 0)
    settled, outstanding, transfers = settle_exact(currency, exact, payments)
    return NightMoney(
        currency,
        {party: money.get(party, 0) for party in exact},
        net,
        settled,
        outstanding,
        transfers,
    )


# ---- reading a round as typed ---------------------------------------------------------------


def read_round(
    order: Sequence[str],
    *,
    paid_by: Any,
    people: Any,
    amount: Any,
    currency: str,
    shares: Any = None,
    what: Any = None,
) -> Round:
    """A round as typed (API.md "Rounds"), checked against the night's players (``order``,
    its seating order): every mistake at once, each naming its field (RULES.md §6c)."""
    problems = Problems()
    payer: str | None = None
    try:
        payer = _payer(order, paid_by)
    except RuleError as e:
        problems.add(e)
    chosen = _people(order, people, problems)
    cents = _catch(problems, lambda: parse_amount(amount, currency))
    named = _catch(problems, lambda: read_what(what))
    counted = _shares(chosen, shares, problems)
    problems.raise_found()
    assert payer is not None and cents is not None  # else a problem was raised
    return Round(payer, cents, counted, named)


def _catch(problems: Problems, read: Callable[[], T]) -> T | None:
    try:
        return read()
    except RuleError as e:
        problems.add(e)
        return None


def _player(order: Sequence[str], name: str, field: str) -> str:
    """The night's player ``name`` means, whatever its case; refused naming ``field``."""
    key = name.strip().casefold()
    found = next((p for p in order if p.casefold() == key), None)
    if found is None:
        raise RuleError(
            "{player} is not playing tonight: a round is paid by and for the night's players.",
            field=field,
            player=name.strip(),
        )
    return found


def _payer(order: Sequence[str], paid_by: Any) -> str:
    if not isinstance(paid_by, str) or not paid_by.strip():
        raise RuleError("Say who paid for the round.", field="paid_by")
    return _player(order, paid_by, "paid_by")


def _people(order: Sequence[str], people: Any, problems: Problems) -> list[str]:
    """Who the round was for, each once, in seating order."""
    if not isinstance(people, list | tuple) or not people:
        problems.add(RuleError("Say who the round was for.", field="for"))
        return []
    found: list[str] = []
    for i, name in enumerate(people):
        if not isinstance(name, str) or not name.strip():
            problems.add(RuleError("Say who the round was for.", field=f"for[{i}]"))
            continue
        try:
            player = _player(order, name, f"for[{i}]")
        except RuleError as e:
            problems.add(e)
            continue
        if player not in found:
            found.append(player)
    return seated(found, order)


def _shares(people: Sequence[str], shares: Any, problems: Problems) -> dict[str, int]:
    """Each person's share: 1 unless ``shares`` (a mapping of names) says otherwise."""
    counted = dict.fromkeys(people, 1)
    if shares is None:
        return counted
    if not isinstance(shares, Mapping):
        problems.add(RuleError("Give each share as a name and a whole number.", field="shares"))
        return counted
    keys = {p.casefold(): p for p in people}
    given: dict[str, str] = {}  # each person's share as it was named: names match whatever case
    for name, share in shares.items():
        field = f"shares.{name}"
        person = keys.get(str(name).strip().casefold())
        if person is not None and person in given:
            problems.add(
                RuleError(
                    "{player}'s share is given twice, as {first} and {second}: give it once.",
                    field=field,
                    player=person,
                    first=given[person],
                    second=str(name),
                )
            )
            continue
        if person is not None:
            given[person] = str(name)
        if person is None:
            problems.add(
                RuleError(
                    "{player} has a share, but the round was not for {player}.",
                    field=field,
                    player=str(name),
                )
            )
        elif isinstance(share, bool) or not isinstance(share, int) or share < 1:
            problems.add(
                RuleError(
                    "Shares are whole numbers of at least 1: {player}'s is {share}.",
                    field=field,
                    player=person,
                    share=_shown(share),
                )
            )
        elif share > MOST_SHARE:
            problems.add(
                RuleError(
                    "A share of {share} is more than a round is split into: give at most {most}.",
                    field=field,
                    share=share,
                    most=MOST_SHARE,
                )
            )
        else:
            counted[person] = share
    return counted


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 20 else text[:19] + "…"


def parse_amount(text: Any, currency: str) -> int:
    """An amount as typed (``"18.40"``, ``"18,40"`` on a Dutch page, ``"1.840,00"``, or a
    whole number) in the currency's cents: more than 0, at most 10,000.00, whole cents."""
    places = minor_units(currency)
    if isinstance(text, int) and not isinstance(text, bool):
        value = Decimal(text)
        shown = str(text)
    elif isinstance(text, str) and 0 < len(text.strip()) <= 20:
        shown = text.strip()
        value = _decimal(shown)
    elif isinstance(text, str) and not text.strip():
        raise RuleError("Say how much the round cost, like 18.40.", field="amount")
    elif isinstance(text, float):
        raise RuleError(
            'Give the amount as text, like "18.40", so it is kept exactly.', field="amount"
        )
    elif text is None:
        raise RuleError("Say how much the round cost, like 18.40.", field="amount")
    else:
        shown = _shown(text)
        value = Decimal("NaN")
    most = Decimal(MOST)
    cents = value.scaleb(places) if value.is_finite() else value
    if not value.is_finite() or value <= 0 or value > most or cents != cents.to_integral_value():
        raise RuleError(
            "The amount must be more than 0 and at most {most}, in whole cents: {amount} is not.",
            field="amount",
            most=f"{most:,.{places}f}",
            amount=shown,
        )
    return int(cents)


# An amount as a person writes it, once its marks are read: digits, one decimal point.
_PLAIN = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")


def _decimal(text: str) -> Decimal:
    """``text`` as a number: a single comma is a decimal mark ("18,40"); with both marks the
    last one is ("1.840,00", "1,840.00")."""
    cleaned = text.replace(" ", "").replace("\u00a0", "")
    if "," in cleaned and "." in cleaned:
        if cleaned.rfind(",") > cleaned.rfind("."):
            cleaned = cleaned.replace(".", "").replace(",", ".")
        else:
            cleaned = cleaned.replace(",", "")
    elif cleaned.count(",") == 1:
        cleaned = cleaned.replace(",", ".")
    if not _PLAIN.fullmatch(cleaned):  # no "1e3", "1_000", "NaN": digits and one mark only
        return Decimal("NaN")
    try:
        return Decimal(cleaned)
    except InvalidOperation:
        return Decimal("NaN")


def read_what(what: Any) -> str | None:
    """What the round was, its spaces tidied: None when not said; at most 60 characters."""
    if what is None:
        return None
    if not isinstance(what, str):
        raise RuleError("Say what the round was in words, like “chips”.", field="what")
    tidy = " ".join(what.split())
    if not tidy:
        return None
    if len(tidy) > WHAT_LENGTH:
        raise RuleError(
            "Say what the round was in at most {most} characters.", field="what", most=WHAT_LENGTH
        )
    if any(unicodedata.category(ch) in ("Cc", "Cs") for ch in tidy):
        raise RuleError("What the round was holds a character that cannot be shown.", field="what")
    hidden = hidden_character(tidy)
    if hidden is not None:
        raise RuleError(
            "What the round was holds {character}, a character that shows nothing or turns the "
            "text around it: say it in plain words.",
            field="what",
            character=code_point(hidden),
        )
    return tidy
