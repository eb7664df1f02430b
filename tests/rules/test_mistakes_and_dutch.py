"""Every mistake at once and the Dutch letters (RULES.md §1): what the engine refuses and reads."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ledger.rules import (
    card_label,
    cards_as_typed,
    gin,
    kaluki,
    rank_letter,
    rummy,
    rummy500,
    spin,
    spot,
    spots,
)
from ledger.rules.base import HandEntry, ResultEntry, State
from ledger.rules.cards import english_cards, parse_cards
from ledger.rules.errors import RuleError

PUB = ("Enda", "John", "Rex", "Finn")


def entry(out: str | None = None, language: str = "en", **cards: Any) -> HandEntry:
    """A hand: a string is cards, an int a spot total, None no result at all."""
    results = tuple(
        ResultEntry(p, cards=c) if isinstance(c, str) else ResultEntry(p, spots=c)
        for p, c in cards.items()
        if c is not None
    )
    return HandEntry(results=results, out=out, cards_language=language)


def refused(game: Any, state: State, hand: HandEntry, **options: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        game.play(state, hand, {**game.defaults(), **options})
    return caught.value


def spot_state() -> State:
    return spot.GAME.new_state(PUB, "Finn", spot.GAME.defaults())


def where(error: RuleError) -> list[tuple[str | None, tuple[str, ...]]]:
    return [(p.field, p.players) for p in error.problems]


# --- Every mistake at once -------------------------------------------------------------------


def test_three_bad_rows_are_three_problems_in_the_order_of_the_rows() -> None:
    error = refused(
        spot.GAME, spot_state(), entry(Enda="J 1", John="A 3", Rex="2 11", Finn="Q Q Q Q Q Q Q Q Q")
    )
    assert where(error) == [
        ("results[0].cards", ("Enda",)),
        ("results[2].cards", ("Rex",)),
        ("results[3].cards", ("Finn",)),
    ]
    messages = [p.message for p in error.problems]
    assert messages[0] == "Enda: '1' is not a card — the ace is A."
    assert messages[1].startswith("Rex: '11' is not a card")
    assert messages[2] == "Finn has 9 cards, but a hand of Spot ends with at most 8."
    # The error itself is the first problem, so `except RuleError` code reads it as before.
    assert error is error.problems[0]
    assert (error.field, error.message) == ("results[0].cards", messages[0])


def test_the_deck_is_checked_across_players_after_each_players_own_problems() -> None:
    error = refused(
        spot.GAME, spot_state(), entry(Enda="QS 10", John="QS x", Rex="QS 9", Finn="KH")
    )
    assert where(error) == [
        ("results[1].cards", ("John",)),
        # John's row is refused for its 'x'; the deck still counts every card that did read,
        # John's Q♠ too (issue 29: a bad token no longer hides a card held twice).
        ("results[0].cards", ("Enda", "John", "Rex")),
    ]
    assert error.problems[1].message == (
        "Three players have the Q♠ (Enda, John, Rex), but there is only one in the deck."
    )


@pytest.mark.parametrize("game", [spot, spots, rummy, spin, gin, kaluki, rummy500])
def test_a_bad_token_does_not_hide_a_card_held_too_often(game: Any) -> None:
    """'11' beside the K♥ in one row, the K♥ in the others, more than the deck has: both
    mistakes in one refusal (issue 29), in every game that reads cards."""
    two = game in (gin, spin)
    players = ("Enda", "John", "Rex", "Finn")[: 2 if two else 4]
    state = game.GAME.new_state(players, players[-1], game.GAME.defaults())
    rows = {"Enda": "11 KH 3C", "John": "KH 5D", "Rex": "KH 7C", "Finn": "KH 8D"}
    results = [game.GAME.result_type(p, cards=rows[p]) for p in players]
    if game is rummy500:
        results = [replace(r, melded_points=0) for r in results]
    ending = {"ending": "knock"} if game is gin else {}
    hand = game.GAME.entry_type(results=tuple(results), out=None, **ending)
    messages = [p.message for p in refused(game.GAME, state, hand).problems]
    assert any(m.startswith("Enda: '11' is not a card") for m in messages), messages
    held = "K♥ (Enda, John)" if two else "K♥ (Enda, John, Rex, Finn)"
    assert any(held in m for m in messages), messages


def test_every_breach_of_the_deck_is_named_once() -> None:
    error = refused(
        spot.GAME, spot_state(), entry(Enda="QS 5", John="QS 5", Rex="KH KH 5", Finn="5 5")
    )
    assert [p.message for p in error.problems] == [
        "Two players both have the Q♠ (Enda, John).",
        "There are only four 5s in the deck, but 5 were entered (Enda 1, John 1, Rex 1, Finn 2).",
        "Rex has the K♥ twice, but there is only one in the deck.",
    ]


def test_a_missing_result_and_a_total_out_of_range_are_told_with_the_bad_cards() -> None:
    state = spot.GAME.new_state(PUB, "Finn", spot.GAME.check_options({"entry": "totals"}))
    error = refused(
        spot.GAME, state, entry(out="Enda", Enda="", John=81, Rex="2 Z"), entry="totals"
    )
    assert where(error) == [
        ("results", ("Finn",)),
        ("results[1].spots", ("John",)),
        ("results[2].cards", ("Rex",)),
    ]


def test_every_bad_token_of_one_row_is_named() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("J 1 11", player="Rex", field="results[2].cards")
    assert [p.message[:14] for p in caught.value.problems] == ["Rex: '1' is no", "Rex: '11' is n"]
    assert {p.field for p in caught.value.problems} == {"results[2].cards"}


def test_rummy_names_the_missing_out_and_each_bad_row() -> None:
    state = rummy.GAME.new_state(PUB, "Finn", rummy.GAME.defaults())
    error = refused(rummy.GAME, state, entry(Enda="", John="A 3 X", Rex="2 9", Finn="Q Q Q Q Q"))
    assert where(error) == [
        ("out", ()),
        ("results[1].cards", ("John",)),
        ("results[3].cards", ("Finn",)),
    ]


def test_spots_and_spin_rummy_tell_every_row_too() -> None:
    state = spots.GAME.new_state(PUB, "Finn", spots.GAME.defaults())
    error = refused(spots.GAME, state, entry(out="Enda", Enda="", John="1", Rex="2", Finn="Y"))
    assert [p.field for p in error.problems] == ["results[1].cards", "results[3].cards"]
    duel = spin.GAME.new_state(("Ann", "Bob"), "Ann", spin.GAME.defaults())
    error = refused(spin.GAME, duel, entry(Ann="3H 4H 2H", Bob="5"))
    assert [p.field for p in error.problems] == ["results[0].cards", "results[1].cards"]


def test_a_hand_with_one_mistake_has_one_problem() -> None:
    error = refused(spot.GAME, spot_state(), entry(Enda="J 10", John="A 3", Rex="2 9", Finn="Q X"))
    assert error.problems == (error,)


# --- Dutch letters ---------------------------------------------------------------------------


def test_dutch_letters_are_read_in_a_dutch_entry() -> None:
    cards = parse_cards("Vh Hk 10r B A Hs H V", language="nl")
    assert [c.code for c in cards] == ["QH", "KC", "10D", "J", "A", "KS", "K", "Q"]


def test_english_letters_and_symbols_still_read_in_a_dutch_entry() -> None:
    cards = parse_cards("K Q J QS 10♦ KD AC JK", language="nl", jokers=True)
    assert [c.code for c in cards] == ["K", "Q", "J", "QS", "10D", "KD", "AC", "JK"]


@pytest.mark.parametrize(("typed", "meant"), [("V", "Q"), ("Vh", "QH"), ("VS", "QS")])
def test_an_english_error_for_dutch_letters_says_they_are_dutch(typed: str, meant: str) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(typed)
    assert caught.value.message == (
        f"'{typed}' is not a card — H, V and B are the Dutch letters (heer, vrouw, boer): "
        f"in English write {meant}."
    )


def test_a_dutch_rank_and_suit_in_english_name_both_as_dutch() -> None:
    # Said as the German ones are (one table of letters per language, deck.LETTERS).
    with pytest.raises(RuleError) as caught:
        parse_cards("Hk")
    assert caught.value.message == (
        "'Hk' is not a card — H, V and B are the Dutch letters (heer, vrouw, boer), h, r, k "
        "and s the Dutch suits: in English write KC."
    )


def test_a_lone_h_in_english_is_a_suit_without_a_rank_or_the_dutch_heer() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("H V", player="Rex")
    first, second = caught.value.problems
    assert "H is the suit of hearts" in first.message and "Dutch letters" in first.message
    assert "Dutch letters" in second.message


def test_the_dutch_suit_letters_in_english_are_named_as_dutch() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("10r")
    assert "Dutch letters for diamonds and clubs" in caught.value.message
    assert "10D" in caught.value.message


def test_a_dutch_hand_is_played_and_stored_in_english() -> None:
    hand = entry(Enda="B 10", John="A 3", Rex="2 9", Finn="Vh Hk", language="nl")
    outcome = spot.GAME.play(spot_state(), hand, spot.GAME.defaults())
    assert [c.code for c in outcome.results[3].cards] == ["QH", "KC"]
    stored = spot.GAME.entry_to_dict(hand)
    assert [r["cards"] for r in stored["results"]] == ["J 10", "A 3", "2 9", "QH KC"]
    assert "cards_language" not in stored
    # Read back (a correction's replay, a restore), it is English and plays the same.
    again = spot.GAME.play(spot_state(), spot.GAME.entry_from_dict(stored), spot.GAME.defaults())
    assert again.results == outcome.results


def test_an_english_entry_is_stored_as_typed() -> None:
    hand = entry(Enda="j-10", John="A 3", Rex="2 9", Finn="q♠ KH")
    stored = spot.GAME.entry_to_dict(hand)
    assert [r["cards"] for r in stored["results"]] == ["j-10", "A 3", "2 9", "q♠ KH"]


def test_the_deck_error_of_a_dutch_entry_names_the_card_in_dutch() -> None:
    hand = entry(Enda="Vs 10", John="Vs 3", Rex="2 9", Finn="K", language="nl")
    error = refused(spot.GAME, spot_state(), hand)
    assert error.message == "Two players both have the V♠ (Enda, John)."


def test_spin_rummy_reads_dutch_melds() -> None:
    duel = spin.GAME.new_state(("Ann", "Bob"), "Ann", spin.GAME.defaults())
    hand = HandEntry(
        results=(
            spin.SpinResult("Ann", melds=("Hh Hr Hk", "3s 4s 5s")),
            ResultEntry("Bob", cards="Vh Vr Vk"),
        ),
        cards_language="nl",
    )
    outcome = spin.GAME.play(duel, hand, spin.GAME.defaults())
    assert outcome.results[0].points == 13 + 3
    assert spin.GAME.entry_to_dict(hand)["results"][0]["melds"] == ["KH KD KC", "3S 4S 5S"]


def test_cards_are_shown_in_the_letters_of_the_page() -> None:
    assert card_label("QH", "nl") == "V♥" and card_label("QH") == "Q♥"
    assert card_label("JK", "nl") == "JK" and card_label("10", "nl") == "10"
    assert cards_as_typed("QH KC 10d j JK", "nl") == "Vh Hk 10r B JK"
    assert cards_as_typed("QH KC", "en") == "QH KC"
    assert rank_letter("K", "nl") == "H" and rank_letter("K", "en") == "K"
    assert english_cards(cards_as_typed("QS KH AD JC 7", "nl"), "nl") == "QS KH AD JC 7"
