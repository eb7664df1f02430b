"""The German card letters (RULES.md §20): read where the entry is German, named as German where
an English entry uses them, kept in English and shown back in German."""

from __future__ import annotations

import pytest

from ledger.rules.cards import (
    card_label,
    card_letters,
    cards_as_typed,
    english_cards,
    parse_cards,
    rank_letter,
    suit_letter,
)
from ledger.rules.errors import RuleError


def test_german_letters_are_read_in_a_german_entry() -> None:
    cards = parse_cards("Bkr Dpi 10he Kka Ahe D B K A 7ka", language="de")
    codes = ["JC", "QS", "10H", "KD", "AH", "Q", "J", "K", "A", "7D"]
    assert [c.code for c in cards] == codes


def test_english_letters_and_symbols_still_read_in_a_german_entry() -> None:
    cards = parse_cards("QD Q♠ JS 10h KC A♦ dd", language="de")
    assert [c.code for c in cards] == ["QD", "QS", "JS", "10H", "KC", "AD", "QD"]


@pytest.mark.parametrize(("typed", "meant"), [("Dkr", "QC"), ("Bpi", "JS"), ("Dhe", "QH")])
def test_an_english_error_for_german_letters_says_they_are_german(typed: str, meant: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(typed)
    assert caught.value.message == (
        f"'{typed}' is not a card — D and B are the German letters (Dame, Bube), kr, pi, he "
        f"and ka the German suits: in English write {meant}."
    )


def test_a_lone_d_in_english_is_a_suit_without_a_rank_or_the_german_dame() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("D")
    assert caught.value.message == (
        "'D' is not a card — in English D is the suit of diamonds and needs a rank before it, "
        "e.g. QD. D and B are the German letters (Dame, Bube): in English write Q and J."
    )


@pytest.mark.parametrize(("typed", "meant"), [("B", "J"), ("Bs", "JS")])
def test_an_english_b_is_the_dutch_and_the_german_jack(typed: str, meant: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(typed)
    assert caught.value.message == (
        f"'{typed}' is not a card — B is the jack in the Dutch letters and the German "
        f"letters (boer, Bube): in English write {meant}."
    )


def test_a_german_suit_after_an_english_rank_is_named_as_german() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("10he Akr")
    first, second = caught.value.problems
    assert first.message == (
        "'10he' is not a card — kr, pi, he and ka are the German letters for clubs, spades, "
        "hearts and diamonds (Kreuz, Pik, Herz, Karo): in English write 10H."
    )
    assert "in English write AC." in second.message


def test_a_german_entry_explains_its_own_letters() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("Dx ka V", language="de")
    bad_suit, suit_alone, unknown = caught.value.problems
    assert "'x' is not a suit; suits are kr, pi, he, ka" in bad_suit.message
    assert "'ka' is a suit without a rank" in suit_alone.message and "Dka" in suit_alone.message
    assert "D, B for Dame, Bube" in unknown.message


def test_german_cards_are_kept_in_english_and_shown_in_german() -> None:
    assert english_cards("Bkr Dpi 10he A", "de") == "JC QS 10H A"
    assert cards_as_typed("JC QS 10H K", "de") == "Bkr Dpi 10he K"
    assert card_label("QS", "de") == "D♠" and card_label("JC", "de") == "B♣"
    assert card_letters("QH", "de") == "Dhe" and rank_letter("J", "de") == "B"
    assert suit_letter("D", "de") == "ka" and suit_letter("D", "nl") == "r"
    assert suit_letter("D", "en") == "D"
