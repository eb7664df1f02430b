"""Amounts in a currency: the coin, rounding that neither makes nor loses money, writing it."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules.errors import RuleError
from ledger.rules.money import (
    CASH_COINS,
    CURRENCY_DECIMALS,
    CURRENCY_SYMBOLS,
    amount,
    coin,
    format_amount,
    parse_unit_value,
    settle_amounts,
    smallest_coin,
)
from ledger.rules.settle import PartyT, Transfer, settle

Balances = Mapping[str | None, int]


def remaining(
    balances: Mapping[PartyT, Decimal], transfers: tuple[tuple[Transfer, Decimal], ...]
) -> dict[str | None, Decimal]:
    """What everyone is owed, in money, once the transfers are made."""
    left: dict[str | None, Decimal] = {party: value for party, value in balances.items()}
    for transfer, paid in transfers:
        left[transfer.source] += paid
        left[transfer.target] -= paid
    return left


# --- Coins and amounts ----------------------------------------------------------------------


def test_the_coin_follows_the_currencys_minor_unit() -> None:
    assert coin("EUR") == Decimal("0.01")
    assert str(coin("EUR")) == "0.01"
    assert str(coin("JPY")) == "1"
    assert str(coin("KWD")) == "0.001"
    assert coin("eur") == Decimal("0.01")


def test_a_currency_the_app_does_not_know_has_two_decimals() -> None:
    assert "XYZ" not in CURRENCY_DECIMALS
    assert coin("XYZ") == Decimal("0.01")


def test_the_common_currencies_are_known() -> None:
    for code in ("EUR", "GBP", "USD", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF"):
        assert CURRENCY_DECIMALS[code] == 2
    for code in ("JPY", "ISK", "KRW"):
        assert CURRENCY_DECIMALS[code] == 0
    assert CURRENCY_SYMBOLS["EUR"] == "€"
    assert CURRENCY_SYMBOLS["GBP"] == "£"


def test_the_smallest_coin_is_the_smallest_one_in_circulation() -> None:
    assert smallest_coin("CHF") == Decimal("0.05")
    assert smallest_coin("DKK") == Decimal("0.50")
    assert smallest_coin("sek") == smallest_coin("NOK") == smallest_coin("CZK") == Decimal("1")
    assert smallest_coin("HUF") == Decimal("5")
    # Elsewhere it is the minor unit.
    assert str(smallest_coin("EUR")) == "0.01"
    assert str(smallest_coin("JPY")) == "1"
    assert str(smallest_coin("XYZ")) == "0.01"


def test_every_smallest_coin_is_a_whole_number_of_minor_units_above_one() -> None:
    for code, value in CASH_COINS.items():
        per = Fraction(value) / Fraction(coin(code))
        assert per.denominator == 1 and per > 1, code


def test_units_become_an_amount_in_the_currency() -> None:
    assert amount(38, Decimal("0.01"), "EUR") == Decimal("0.38")
    assert str(amount(38, Decimal("0.01"), "EUR")) == "0.38"
    assert str(amount(-24, Decimal("0.05"), "EUR")) == "-1.20"
    assert str(amount(0, Decimal("0.01"), "EUR")) == "0.00"
    assert str(amount(12, Decimal("10"), "JPY")) == "120"


def test_an_amount_between_coins_is_rounded_half_to_even() -> None:
    assert str(amount(1, Decimal("0.005"), "EUR")) == "0.00"
    assert str(amount(3, Decimal("0.005"), "EUR")) == "0.02"
    assert str(amount(-3, Decimal("0.005"), "EUR")) == "-0.02"
    assert str(amount(5, Decimal("0.5"), "JPY")) == "2"
    assert str(amount(7, Decimal("0.5"), "JPY")) == "4"


# --- Writing amounts ------------------------------------------------------------------------


def test_amounts_are_written_with_the_symbol_and_the_coins_decimals() -> None:
    assert format_amount(Decimal("0.38"), "EUR") == "€0.38"
    assert format_amount(Decimal("-1.2"), "EUR") == "-€1.20"
    assert format_amount(Decimal("120"), "JPY") == "¥120"
    assert format_amount(Decimal("4.5"), "GBP") == "£4.50"
    assert format_amount(Decimal("1234.5"), "USD") == "$1234.50"


def test_a_currency_without_a_symbol_is_written_with_its_code() -> None:
    assert format_amount(Decimal("4.5"), "CHF") == "CHF 4.50"
    assert format_amount(Decimal("-12"), "SEK") == "-SEK 12.00"


def test_zero_is_written_without_a_minus() -> None:
    assert format_amount(Decimal("-0.00"), "EUR") == "€0.00"
    assert format_amount(Decimal("-0.001"), "EUR") == "€0.00"


# --- Reading the unit value -----------------------------------------------------------------


def test_a_unit_value_is_read_as_an_exact_decimal() -> None:
    assert parse_unit_value("0.01") == Decimal("0.01")
    assert parse_unit_value(" 0.05 ") == Decimal("0.05")
    assert parse_unit_value("0,05") == Decimal("0.05")
    assert parse_unit_value("10") == Decimal("10")
    assert parse_unit_value(Decimal("0.005")) == Decimal("0.005")
    assert parse_unit_value(1) == Decimal("1")
    assert str(parse_unit_value("0.000001")) == "0.000001"
    assert str(parse_unit_value("1E+2")) == "100"


@pytest.mark.parametrize("typed", ["0.0000001", "1E-999999", "0.1234567"])
def test_a_unit_value_has_at_most_six_decimals(typed: str) -> None:
    with pytest.raises(RuleError, match="at most 6 decimals") as refused:
        parse_unit_value(typed)

    assert refused.value.field == "options.unit_value"


@pytest.mark.parametrize("typed", ["1000.000001", "1001", "1000000", "1E+999999"])
def test_a_unit_value_beyond_any_stakes_is_refused(typed: str) -> None:
    with pytest.raises(RuleError, match="at most 1000") as refused:
        parse_unit_value(typed)

    assert refused.value.field == "options.unit_value"


def test_a_unit_value_of_1000_is_the_most_taken() -> None:
    assert parse_unit_value("1000") == Decimal("1000")
    assert parse_unit_value(1000) == Decimal("1000")


@pytest.mark.parametrize("typed", ["", "  ", "abc", "€0.01", "0.0.1", "1,000.5,0", "NaN", "inf"])
def test_a_unit_value_that_is_not_a_number_is_refused_with_a_sentence(typed: str) -> None:
    with pytest.raises(RuleError) as refused:
        parse_unit_value(typed)

    assert refused.value.field == "options.unit_value"
    assert refused.value.message.endswith(".")
    assert "0.01" in refused.value.message


@pytest.mark.parametrize("typed", ["0", "-0.01", Decimal("0"), Decimal("-1")])
def test_a_unit_value_must_be_worth_something(typed: str | Decimal) -> None:
    with pytest.raises(RuleError, match="more than nothing") as refused:
        parse_unit_value(typed)

    assert refused.value.field == "options.unit_value"


def test_a_float_unit_value_is_refused_rather_than_guessed() -> None:
    with pytest.raises(RuleError, match="as text") as refused:
        parse_unit_value(0.01)  # type: ignore[arg-type]

    assert refused.value.field == "options.unit_value"


# --- Settling in money ----------------------------------------------------------------------


def test_whole_coin_units_settle_exactly() -> None:
    balances = {"Enda": 44, "Finn": -38, "Rex": -6, "John": 0}

    rounded, transfers = settle_amounts(balances, Decimal("0.01"), "EUR")

    assert rounded == {
        "Enda": Decimal("0.44"),
        "Finn": Decimal("-0.38"),
        "Rex": Decimal("-0.06"),
        "John": Decimal("0.00"),
    }
    assert [(t, str(paid)) for t, paid in transfers] == [
        (Transfer("Finn", "Enda", 38), "0.38"),
        (Transfer("Rex", "Enda", 6), "0.06"),
    ]


def test_transfers_in_money_are_the_fewest_the_units_allow() -> None:
    balances = {"Enda": 6, "John": 10, "Rex": -6, "Finn": -5, "Mary": -5}

    _, transfers = settle_amounts(balances, Decimal("0.05"), "EUR")

    assert tuple(t for t, _ in transfers) == settle(balances)
    assert [str(paid) for _, paid in transfers] == ["0.25", "0.25", "0.30"]


def test_a_carried_pot_is_paid_into_in_money() -> None:
    balances = {None: 20, "Enda": 30, "Finn": -50}

    rounded, transfers = settle_amounts(balances, Decimal("0.10"), "EUR")

    assert rounded[None] == Decimal("2.00")
    assert (Transfer("Finn", None, 20), Decimal("2.00")) in transfers
    assert all(paid == 0 for paid in remaining(rounded, transfers).values())


def test_yen_amounts_have_no_decimals() -> None:
    rounded, transfers = settle_amounts({"Aoi": 7, "Ren": -7}, Decimal("10"), "JPY")

    assert str(rounded["Aoi"]) == "70"
    assert [(t, str(paid)) for t, paid in transfers] == [(Transfer("Ren", "Aoi", 7), "70")]


def test_half_coin_units_are_rounded_without_making_or_losing_money() -> None:
    # Exactly 0.015, 0.015 and -0.030 EUR: one of the two half coins goes, by name, to Amy.
    balances = {"Amy": 3, "Ben": 3, "Cat": -6}

    rounded, transfers = settle_amounts(balances, Decimal("0.005"), "EUR")

    assert rounded == {"Amy": Decimal("0.02"), "Ben": Decimal("0.01"), "Cat": Decimal("-0.03")}
    assert sum(rounded.values()) == 0
    assert [(t, str(paid)) for t, paid in transfers] == [
        (Transfer("Cat", "Amy", 4), "0.02"),
        (Transfer("Cat", "Ben", 2), "0.01"),
    ]
    assert all(paid == 0 for paid in remaining(rounded, transfers).values())


def test_swiss_francs_are_settled_in_five_rappen_coins() -> None:
    # Exactly 0.43, 0.12 and -0.55 CHF: rounded down to 0.40, 0.10 and -0.55, the one
    # 5-rappen coin left over goes to the largest remainder, Amy's.
    balances = {"Amy": 43, "Ben": 12, "Cat": -55}

    rounded, transfers = settle_amounts(balances, Decimal("0.01"), "CHF")

    assert rounded == {"Amy": Decimal("0.45"), "Ben": Decimal("0.10"), "Cat": Decimal("-0.55")}
    assert [(t, str(paid)) for t, paid in transfers] == [
        (Transfer("Cat", "Amy", 45), "0.45"),
        (Transfer("Cat", "Ben", 10), "0.10"),
    ]
    assert all(paid == 0 for paid in remaining(rounded, transfers).values())


def test_swiss_units_of_whole_coins_settle_exactly() -> None:
    rounded, transfers = settle_amounts({"Amy": 3, "Ben": -3}, Decimal("0.05"), "CHF")

    assert rounded == {"Amy": Decimal("0.15"), "Ben": Decimal("-0.15")}
    assert transfers == ((Transfer("Ben", "Amy", 3), Decimal("0.15")),)


def test_swedish_kronor_are_settled_in_whole_kronor_paid_as_received() -> None:
    # Exactly 1.75, 1.25 and -3.00 SEK.
    balances = {"Amy": 7, "Ben": 5, "Cat": -12}

    rounded, transfers = settle_amounts(balances, Decimal("0.25"), "SEK")

    assert rounded == {"Amy": Decimal("2.00"), "Ben": Decimal("1.00"), "Cat": Decimal("-3.00")}
    assert [(t, str(paid)) for t, paid in transfers] == [
        (Transfer("Cat", "Amy", 8), "2.00"),
        (Transfer("Cat", "Ben", 4), "1.00"),
    ]
    paid = sum((value for _, value in transfers), Decimal(0))
    assert paid == -rounded["Cat"] == rounded["Amy"] + rounded["Ben"]


def test_a_balance_that_rounds_to_nothing_needs_no_transfer() -> None:
    rounded, transfers = settle_amounts({"Amy": 1, "Ben": -1}, Decimal("0.004"), "EUR")

    assert rounded == {"Amy": Decimal("0.00"), "Ben": Decimal("0.00")}
    assert transfers == ()


def test_money_balances_that_do_not_add_up_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="add up to zero"):
        settle_amounts({"Amy": 3, "Ben": -2}, Decimal("0.005"), "EUR")


@st.composite
def zero_sum_balances(draw: st.DrawFn) -> Balances:
    count = draw(st.integers(min_value=1, max_value=9))
    values = draw(st.lists(st.integers(-500, 500), min_size=count - 1, max_size=count - 1))
    values.append(-sum(values))
    names: list[str | None] = [f"P{i}" for i in range(count)]
    if draw(st.booleans()):
        names[0] = None
    return dict(zip(names, values, strict=True))


unit_values = st.decimals(
    min_value=Decimal("0.0001"), max_value=Decimal("5"), places=4, allow_nan=False
)
currencies = st.sampled_from(["EUR", "JPY", "KWD", "XYZ", "CHF", "DKK", "SEK", "HUF"])


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(), unit_values, currencies)
def test_rounded_balances_add_up_to_zero_and_stay_within_a_coin(
    balances: Balances, unit_value: Decimal, currency: str
) -> None:
    rounded, _ = settle_amounts(balances, unit_value, currency)

    assert rounded.keys() == balances.keys()
    assert sum(rounded.values()) == 0
    for party, units in balances.items():
        exact = Fraction(units) * Fraction(unit_value)
        assert abs(Fraction(rounded[party]) - exact) < Fraction(smallest_coin(currency))
        assert rounded[party] == rounded[party].quantize(coin(currency))
        assert rounded[party] % smallest_coin(currency) == 0
        if units == 0:
            assert rounded[party] == 0


@settings(max_examples=300, deadline=None)
@given(zero_sum_balances(), unit_values, currencies)
def test_the_transfers_in_money_leave_everyone_square(
    balances: Balances, unit_value: Decimal, currency: str
) -> None:
    rounded, transfers = settle_amounts(balances, unit_value, currency)
    nonzero = sum(1 for value in rounded.values() if value)

    assert all(paid > 0 and t.units > 0 for t, paid in transfers)
    assert all(paid == paid.quantize(coin(currency)) for _, paid in transfers)
    assert all(paid % smallest_coin(currency) == 0 for _, paid in transfers)
    assert all(value == 0 for value in remaining(rounded, transfers).values())
    assert len(transfers) <= max(nonzero - 1, 0)
    if (unit_value / smallest_coin(currency)) % 1 == 0:
        assert all(paid == amount(t.units, unit_value, currency) for t, paid in transfers)
        assert tuple(t for t, _ in transfers) == settle(balances)


@settings(max_examples=200, deadline=None)
@given(st.integers(-(10**9), 10**9), unit_values, currencies)
def test_an_amount_is_the_nearest_coin(units: int, unit_value: Decimal, currency: str) -> None:
    value = amount(units, unit_value, currency)
    exact = Fraction(units) * Fraction(unit_value)

    assert abs(Fraction(value) - exact) <= Fraction(coin(currency)) / 2
    assert value == value.quantize(coin(currency))
