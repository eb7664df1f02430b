"""Money for people: units as amounts in a currency, rounded to its coin, and written out."""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from types import MappingProxyType

from ledger.rules.errors import RuleError
from ledger.rules.settle import PartyT, Transfer, party_key, settle

# ISO 4217 minor units: the currency's smallest amount on paper, which amounts are written to.
# It is not always a coin in circulation (HUF and CZK have none below 1): settling up rounds to
# the smallest coin instead (CASH_COINS below).
CURRENCY_DECIMALS: Mapping[str, int] = MappingProxyType(
    {
        **dict.fromkeys(
            (
                "EUR GBP USD CHF SEK NOK DKK PLN CZK HUF RON BGN TRY UAH RSD BAM MKD GEL "
                "CAD AUD NZD HKD SGD CNY TWD INR ZAR MXN BRL ARS ILS THB PHP MYR IDR EGP MAD"
            ).split(),
            2,
        ),
        **dict.fromkeys("JPY ISK KRW CLP VND UGX PYG XOF XAF XPF RWF".split(), 0),
        **dict.fromkeys("BHD KWD OMR JOD TND IQD LYD".split(), 3),
    }
)
DEFAULT_DECIMALS = 2

# The smallest coin in circulation where it is bigger than the minor unit: settling up in cash
# is rounded to it (RULES.md §6). Every other currency's smallest coin is its minor unit.
CASH_COINS: Mapping[str, Decimal] = MappingProxyType(
    {
        "CHF": Decimal("0.05"),
        "DKK": Decimal("0.50"),
        "SEK": Decimal("1"),
        "NOK": Decimal("1"),
        "CZK": Decimal("1"),
        "HUF": Decimal("5"),
        "CAD": Decimal("0.05"),
        "AUD": Decimal("0.05"),
        "NZD": Decimal("0.10"),
    }
)

# Symbols a reader recognises without doubt; any other currency is written with its code.
CURRENCY_SYMBOLS: Mapping[str, str] = MappingProxyType(
    {
        "EUR": "€",
        "GBP": "£",
        "USD": "$",
        "JPY": "¥",
        "CNY": "CN¥",
        "KRW": "₩",
        "INR": "₹",
        "ILS": "₪",
        "VND": "₫",
        "PHP": "₱",
        "UAH": "₴",
        "TRY": "₺",
        "THB": "฿",
        "CAD": "CA$",
        "AUD": "A$",
        "NZD": "NZ$",
        "HKD": "HK$",
        "MXN": "MX$",
        "BRL": "R$",
        "TWD": "NT$",
    }
)

_UNIT_VALUE_FIELD = "options.unit_value"
# Bounds on a unit's worth (API.md "Bounds"): far beyond any table's stakes, they keep the
# value in plain notation when written back as text, keep "1E+999999" from becoming a huge
# integer, and keep a night's amounts within what the pages show.
_UNIT_VALUE_PLACES = 6
MAX_UNIT_VALUE = Decimal(1000)


def minor_units(currency: str) -> int:
    """How many decimal places the currency's amounts have (2 for one the app does not know)."""
    return CURRENCY_DECIMALS.get(currency.strip().upper(), DEFAULT_DECIMALS)


def coin(currency: str) -> Decimal:
    """The currency's smallest amount: ``Decimal("0.01")`` for EUR, ``Decimal("1")`` for JPY."""
    return _from_coins(1, minor_units(currency))


def smallest_coin(currency: str) -> Decimal:
    """The smallest coin in circulation, which settling up rounds to: ``Decimal("0.05")`` for
    CHF, ``Decimal("1")`` for SEK, the minor unit (``coin``) for a currency not in CASH_COINS."""
    code = currency.strip().upper()
    return CASH_COINS.get(code, coin(code))


def _minor_per_coin(currency: str) -> int:
    """How many minor units the smallest coin is worth: 5 for CHF, 100 for SEK, 1 for EUR."""
    per: Fraction = Fraction(smallest_coin(currency)) * 10 ** minor_units(currency)
    assert per.denominator == 1 and per > 0, currency  # CASH_COINS holds whole minor units
    return per.numerator


def amount(units: int, unit_value: Decimal, currency: str) -> Decimal:
    """``units`` worth ``unit_value`` each, rounded half-to-even to the currency's coin."""
    places = minor_units(currency)
    # Fractions keep the product exact whatever the Decimal context's precision is.
    return _from_coins(round(units * Fraction(unit_value) * 10**places), places)


def format_amount(value: Decimal, currency: str) -> str:
    """``"€0.38"``, ``"-€1.20"``, ``"¥120"``, ``"CHF 4.50"``: for reading, not for parsing back.

    The minus is ASCII ``-`` so a copied amount pastes into a banking app or a spreadsheet.
    """
    code = currency.strip().upper()
    places = minor_units(code)
    coins = round(Fraction(value) * 10**places)
    digits = format(_from_coins(abs(coins), places), "f")
    symbol = CURRENCY_SYMBOLS.get(code)
    if symbol is not None:
        text = f"{symbol}{digits}"
    elif code:
        text = f"{code} {digits}"
    else:
        text = digits
    # A value that rounds to zero is written without a sign: "-€0.00" reads as a debt.
    return f"-{text}" if coins < 0 else text


def parse_unit_value(text: str | Decimal | int) -> Decimal:
    """The money one unit is worth, as typed (``"0.01"``, ``"0,05"``): a positive decimal.

    A single comma with no point is read as the decimal mark, as much of Europe writes it.
    A float is refused rather than converted: it cannot hold 0.01 exactly. The value has at
    most six decimals and is at most 1000; ``str()`` of it is plain notation.
    """
    if isinstance(text, Decimal):
        value = text
    elif isinstance(text, int) and not isinstance(text, bool):
        value = Decimal(text)
    elif isinstance(text, str):
        cleaned = text.strip()
        if not cleaned:
            raise RuleError("Give the money one unit is worth, like 0.01.", field=_UNIT_VALUE_FIELD)
        if "." not in cleaned and cleaned.count(",") == 1:
            cleaned = cleaned.replace(",", ".")
        try:
            value = Decimal(cleaned)
        except InvalidOperation:
            value = Decimal("NaN")
    else:
        raise RuleError(
            'Give the unit value as text, like "0.01", so it is kept exactly.',
            field=_UNIT_VALUE_FIELD,
        )
    if not value.is_finite():
        raise RuleError(
            "“{text}” is not an amount: give the money one unit is worth, like 0.01.",
            field=_UNIT_VALUE_FIELD,
            text=str(text),
        )
    if value <= 0:
        raise RuleError(
            "A unit must be worth more than nothing, not {text}: give an amount like 0.01.",
            field=_UNIT_VALUE_FIELD,
            text=str(text),
        )
    if value > MAX_UNIT_VALUE:
        raise RuleError(
            "A unit worth {text} is more than the app can keep: give at most {most}.",
            field=_UNIT_VALUE_FIELD,
            text=str(text),
            most=str(MAX_UNIT_VALUE),
        )
    # Safe from here: below the limit, quantizing needs far fewer digits than any context has.
    if value != value.quantize(Decimal(1).scaleb(-_UNIT_VALUE_PLACES)):
        raise RuleError(
            "A unit value has at most {places} decimals, not {text}: give an amount like 0.005.",
            field=_UNIT_VALUE_FIELD,
            places=_UNIT_VALUE_PLACES,
            text=str(text),
        )
    exponent = value.as_tuple().exponent  # an int: the value is finite
    # "1E+2" is written back as "100", so the stored option reads as it means.
    return value.quantize(Decimal(1)) if isinstance(exponent, int) and exponent > 0 else value


def settle_amounts(
    balances: Mapping[PartyT, int], unit_value: Decimal, currency: str
) -> tuple[dict[PartyT, Decimal], tuple[tuple[Transfer, Decimal], ...]]:
    """Balances and the transfers that settle them, in the currency's coins (RULES.md §6).

    Returns every party's balance as an amount, and the fewest transfers with their amounts;
    every amount is a whole number of the currency's smallest coin (``smallest_coin``: 0.01 for
    EUR, 0.05 for CHF, 1 for SEK), and after the transfers every returned balance is zero,
    exactly: what is paid is what is received.

    When a unit is a whole number of coins (0.01, 0.05 or 1 EUR; 0.05 or 0.10 CHF) all of it
    is exact: each amount is ``units × unit_value`` and each transfer's ``units`` are real units.

    When it is not (0.005 EUR, 0.01 CHF), the exact amounts are rounded to coins by largest
    remainder: each is rounded down, then the coins that leaves over go one each to the largest
    remainders (ties by party: name, the pot last), so no money is created or lost and each
    balance is within one coin of exact. The transfers settle those coin amounts, which are
    what people hand over; a transfer's ``units`` is then its amount in units rounded to the
    nearest whole (at least 1), for display only: those units need not add up.
    """
    total = sum(balances.values())
    if total != 0:
        raise ValueError(f"Balances must add up to zero, not {total}.")
    places = minor_units(currency)
    step = _minor_per_coin(currency)
    coins_per_unit = Fraction(unit_value) * 10**places / step
    if coins_per_unit <= 0:
        raise ValueError(f"A unit must be worth more than nothing, not {unit_value}.")

    def money(coins: int) -> Decimal:
        return _from_coins(coins * step, places)

    if coins_per_unit.denominator == 1:
        per_unit = coins_per_unit.numerator
        exact = {party: money(units * per_unit) for party, units in balances.items()}
        pairs = tuple((transfer, money(transfer.units * per_unit)) for transfer in settle(balances))
        return exact, pairs

    coins = _round_conserving({party: units * coins_per_unit for party, units in balances.items()})
    rounded = {party: money(count) for party, count in coins.items()}
    pairs = tuple(
        (
            Transfer(paid.source, paid.target, max(1, round(paid.units / coins_per_unit))),
            money(paid.units),
        )
        for paid in settle(coins)
    )
    return rounded, pairs


def _round_conserving(exact: Mapping[PartyT, Fraction]) -> dict[PartyT, int]:
    """Whole numbers within one of each value, with the same (whole) total: largest remainder."""
    floors = {party: math.floor(value) for party, value in exact.items()}
    short = sum(exact.values()) - sum(floors.values())
    if short.denominator != 1:
        raise ValueError("Only values with a whole total can be rounded without loss.")
    by_remainder = sorted(exact, key=lambda p: (floors[p] - exact[p], party_key(p)))
    for party in by_remainder[: short.numerator]:
        floors[party] += 1
    return floors


def _from_coins(coins: int, places: int) -> Decimal:
    """``coins`` smallest amounts as a Decimal with exactly ``places`` decimals, built exactly."""
    digits = tuple(int(d) for d in str(abs(coins)))
    return Decimal((1 if coins < 0 else 0, digits, -places))
