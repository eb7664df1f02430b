"""Numbers, money, cards and games written as the pages, the PDFs and the history write them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from copy import copy
from decimal import Decimal
from typing import Any

from babel import Locale
from flask_babel import get_locale, get_translations

from ledger.rules import (
    GAMES,
    amount,
    card_label,
    cards_as_typed,
    coin,
    minor_units,
    nights,
    rank_letter,
)
from ledger.rules.cards import RANKS, SUITS, parse_cards
from ledger.rules.cards import suit_letter as letters_of
from ledger.words.games import text
from ledger.words.language import DEFAULT_LANGUAGE, page_cards_language

# A currency written in letters ("CHF") is kept apart from the digits by a no-break space, as
# CLDR's currency spacing says (Babel leaves it out: "CHF4.50").
_LETTERS_THEN_DIGIT = re.compile(r"(?<=[^\W\d_])(?=[-\d])")


_DIGIT_THEN_LETTERS = re.compile(r"(?<=\d)(?=[^\W\d_])")


def format_money(value: Decimal, currency: str | None) -> str:
    """An amount the way the page's language writes money: "-€0.46", in Dutch "€ -0,46".

    The amount is written exactly, with the currency's own number of decimals (ISO 4217, as
    the engine rounds it: ledger/rules/money.py), whatever Babel thinks the currency has.
    A value that rounds to zero has no sign: "-€0.00" reads as a debt.
    """
    code = (currency or "").strip().upper()
    places = minor_units(code)
    exact = value.quantize(coin(code))
    if not exact:
        exact = abs(exact)
    locale = get_locale() or Locale.parse(DEFAULT_LANGUAGE)
    standard = locale.currency_formats["standard"] if code else locale.decimal_formats[None]
    pattern = copy(standard)
    pattern.frac_prec = (places, places)
    text = pattern.apply(exact, locale, currency=code or None, currency_digits=False)
    if code:
        text = _LETTERS_THEN_DIGIT.sub("\u00a0", text)
        text = _DIGIT_THEN_LETTERS.sub("\u00a0", text)
    return text


def money(value: Decimal | None, currency: str | None) -> str:
    return "" if value is None else format_money(value, currency)


def units_money(units: int | None, session: Any) -> str:
    """Units of a money session (its pot) in the session's currency: "€0.20"."""
    if units is None or session.unit_value is None:
        return ""
    return format_money(amount(units, session.unit_value, session.currency), session.currency)


def signed(value: int | Decimal | None) -> str:
    """A score with its sign ("+51", "-20", "0"), so plus and minus never rest on colour."""
    if value is None:
        return ""
    return f"+{value}" if value > 0 else str(value)


def sign_class(value: int | Decimal | None) -> str:
    if not value:
        return ""
    return "plus" if value > 0 else "minus"


def card(code: str) -> str:
    """A card code as it is read: "QS" as "Q♠" (on a Dutch page "V♠"), "10", "JK"."""
    return card_label(code, page_cards_language())


def cards(codes: Iterable[str]) -> str:
    return " ".join(card(c) for c in codes)


def typed_cards(text: str | None) -> str:
    """Cards as stored ("QH KC") as the page's players type them: in Dutch "Vh Hk"."""
    return cards_as_typed(text or "", page_cards_language())


def meld_points(codes: Sequence[str], game_key: str) -> int | None:
    """What a meld laid out scores in the game (Spin Rummy: a set its rank, a run its lowest
    card; the engine's answer), or None where melds do not score."""
    game = GAMES.get(game_key)
    if game is None:
        return None
    return game.meld_value(parse_cards(" ".join(codes)))


def rank_shown(rank: str) -> str:
    """A rank as the page's language writes it: "Q", on a Dutch page "V"."""
    return rank_letter(rank, page_cards_language())


def unmelded(codes: Iterable[str], melds: Iterable[Sequence[str]]) -> list[str]:
    """The cards of a hand that are in none of its melds, in the order they were typed."""
    left = Counter(c for meld in melds for c in meld)
    rest = []
    for code in codes:
        if left[code]:
            left[code] -= 1
        else:
            rest.append(code)
    return rest


def game_name(key: str) -> str:
    game = GAMES.get(key)
    return text(game.name) if game is not None else key


def night_game(night: Any) -> str:
    """A night's game on this page: the table's own name for it ("Hearts"), else the game's."""
    return getattr(night, "own_name", "") or game_name(night.game)


def night_name(night: Any) -> str:
    """A night as its pages name it, "Spot #2" (ledger/rules/nights.py)."""
    name = GAMES[night.game].name if night.game in GAMES else night.game
    own, translate = getattr(night, "own_name", ""), get_translations().gettext
    return nights.night_name(name, own, night.number, translate)


def suit_letter(suit: str) -> str:
    """The letters a suit is typed with on this page: "D", in Dutch "r", in German "ka"."""
    return letters_of(suit, page_cards_language())


def card_letters() -> dict[str, dict[str, str]]:
    """The letters this page's players type ranks and suits with, where they are not the
    English codes: none in English, in Dutch {"ranks": {"K": "H", …}, "suits": {"H": "h", …}}.
    Read from the same place the page's cards are shown with (rank_shown, suit_letter), for
    the card buttons' script (static/picker.js)."""
    ranks = {rank: rank_shown(rank) for rank in RANKS if rank_shown(rank) != rank}
    suits = {suit: suit_letter(suit) for suit in SUITS if suit_letter(suit) != suit}
    return {"ranks": ranks, "suits": suits}
