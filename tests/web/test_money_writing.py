"""Amounts are written from each currency's shape in the page's language (ledger/web/display.py),
read off Babel's own writing: every amount must come out as Babel writes it."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel import Locale
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import coin
from ledger.rules.money import CURRENCY_DECIMALS
from ledger.web.display import _babel_money, _format_money, _money_shape

CODES = sorted(CURRENCY_DECIMALS) + ["", "XYZ"]  # no currency; one the app does not know
# The app's languages, and two that write amounts otherwise (Indian grouping, Swiss marks).
LOCALES = [Locale.parse(name) for name in ("en", "nl", "hi_IN", "de_CH")]


def as_babel_writes(value: Decimal, code: str, locale: Locale) -> str:
    exact = value.quantize(coin(code))
    return _babel_money(exact if exact else abs(exact), code, locale)


@settings(max_examples=400, deadline=None)
@given(
    value=st.decimals(min_value=-(10**9), max_value=10**9, places=3, allow_nan=False),
    code=st.sampled_from(CODES),
    locale=st.sampled_from(LOCALES),
)
def test_every_amount_is_written_as_babel_writes_it(value, code, locale):
    assert _format_money.__wrapped__(value, code, locale) == as_babel_writes(value, code, locale)


@pytest.mark.parametrize("code", CODES)
def test_the_apps_languages_write_every_currency_from_its_shape(code):
    for name in ("en", "nl"):
        assert _money_shape(code, Locale.parse(name)) is not None


def test_a_shape_babel_does_not_follow_is_left_to_babel():
    # Indian grouping (12,34,567) is not groups of three: each amount goes to Babel.
    assert _money_shape("INR", Locale.parse("hi_IN")) is None
    assert _format_money.__wrapped__(Decimal("1234567"), "INR", Locale.parse("hi_IN")) == (
        as_babel_writes(Decimal("1234567"), "INR", Locale.parse("hi_IN"))
    )


def test_dutch_and_english_amounts_read_as_a_player_expects():
    en, nl = Locale.parse("en"), Locale.parse("nl")
    assert _format_money.__wrapped__(Decimal("-1234.5"), "EUR", en) == "-€1,234.50"
    assert _format_money.__wrapped__(Decimal("-1234.5"), "EUR", nl) == "€\u00a0-1.234,50"
    assert _format_money.__wrapped__(Decimal("-0.001"), "EUR", en) == "€0.00"  # no debt
    assert _format_money.__wrapped__(Decimal("4.5"), "CHF", en) == "CHF\u00a04.50"
    assert _format_money.__wrapped__(Decimal("120"), "JPY", nl) == "JP¥\u00a0120"
