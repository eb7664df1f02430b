"""Cards as players type them (RULES.md §1): what is read, what is refused and why, the deck."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.rules.cards import (
    JOKER,
    RANKS,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    check_deck,
    parse_cards,
    spot_total,
    spot_value,
)
from ledger.rules.errors import RuleError

SPIN_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def codes(text: str, **options: object) -> list[str]:
    return [card.code for card in parse_cards(text, **options)]  # type: ignore[arg-type]


def deck_error(hands: dict[str, str], **options: object) -> RuleError:
    parsed = {player: parse_cards(text, jokers=True) for player, text in hands.items()}
    with pytest.raises(RuleError) as caught:
        check_deck(parsed, **options)  # type: ignore[arg-type]
    return caught.value


# --- Cards ------------------------------------------------------------------------------------


def test_a_card_has_an_ascii_code_and_a_name_for_people() -> None:
    assert Card("Q", "S").code == "QS"
    assert str(Card("Q", "S")) == "Q♠"
    assert Card("10", "H").code == "10H"
    assert str(Card("10", "H")) == "10♥"
    assert Card("7").code == "7"
    assert str(Card("7")) == "7"
    assert JOKER.code == "JK"
    assert str(JOKER) == "joker"


def test_only_the_joker_is_a_joker() -> None:
    assert JOKER.is_joker
    assert JOKER == Card(None, None)
    assert not Card("A").is_joker


def test_the_suits_and_ranks_are_the_canonical_ones() -> None:
    assert SUITS == ("S", "H", "D", "C")
    assert [SUIT_SYMBOLS[s] for s in SUITS] == ["♠", "♥", "♦", "♣"]
    assert len(RANKS) == 13


@pytest.mark.parametrize(
    ("rank", "suit"), [("1", None), ("T", None), ("11", "S"), ("Q", "X"), (None, "S")]
)
def test_a_card_that_cannot_exist_cannot_be_built(rank: str | None, suit: str | None) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)


def test_cards_are_values() -> None:
    assert Card("Q", "S") == Card("Q", "S")
    assert Card("Q", "S") != Card("Q")
    assert len({Card("Q", "S"), Card("Q", "S"), Card("Q")}) == 2


# --- What is read -----------------------------------------------------------------------------


def test_blank_text_is_no_cards() -> None:
    assert parse_cards("") == ()
    assert parse_cards("   ") == ()
    assert parse_cards(" , - ") == ()


def test_cards_may_be_separated_by_spaces_commas_or_hyphens() -> None:
    assert codes("J-10") == ["J", "10"]
    assert codes("5 5 6") == ["5", "5", "6"]
    assert codes("QS, KS") == ["QS", "KS"]
    assert codes("  k♠ , 10h ") == ["KS", "10H"]


def test_separators_may_be_mixed_and_repeated() -> None:
    assert codes("A,,2 -- 3 ,- 4\t5\n6") == ["A", "2", "3", "4", "5", "6"]


def test_dashes_a_phone_puts_in_for_a_hyphen_also_separate() -> None:
    assert codes("J–10—9−8") == ["J", "10", "9", "8"]


def test_every_rank_is_read() -> None:
    assert codes("A 2 3 4 5 6 7 8 9 10 J Q K") == list(RANKS)


def test_ranks_are_read_in_any_case() -> None:
    assert codes("a j q k") == ["A", "J", "Q", "K"]


def test_a_ten_can_be_typed_as_T() -> None:
    assert codes("T t TH th") == ["10", "10", "10H", "10H"]


def test_a_suit_can_be_a_letter_in_any_case() -> None:
    assert codes("QS qh Qd qC") == ["QS", "QH", "QD", "QC"]


def test_a_suit_can_be_a_symbol() -> None:
    assert codes("Q♠ Q♥ Q♦ Q♣") == ["QS", "QH", "QD", "QC"]


def test_a_suit_can_be_the_emoji_form_of_the_symbol() -> None:
    assert codes("Q♠️ Q♥️ Q♦️ Q♣️ Q❤️") == ["QS", "QH", "QD", "QC", "QH"]


def test_a_suit_can_be_the_outline_symbol() -> None:
    assert codes("Q♤ Q♡ Q♢ Q♧") == ["QS", "QH", "QD", "QC"]


def test_suited_and_unsuited_cards_may_be_mixed() -> None:
    assert codes("7 7H 10 10♣") == ["7", "7H", "10", "10C"]


def test_full_width_characters_from_a_phone_keyboard_are_read() -> None:
    assert codes("１０Ｈ，Ｑ") == ["10H", "Q"]


def test_cards_keep_the_order_they_were_typed_in() -> None:
    assert codes("K 2 Q 2") == ["K", "2", "Q", "2"]


def test_a_joker_is_JK_or_a_star_or_the_word_in_a_game_with_jokers() -> None:
    assert parse_cards("JK jk * Joker 🃏", jokers=True) == (JOKER,) * 5


def test_a_game_with_jokers_still_reads_the_jack_and_king() -> None:
    assert codes("J K JS KS", jokers=True) == ["J", "K", "JS", "KS"]


def test_spin_rummy_reads_suited_cards_of_its_ranks() -> None:
    cards = parse_cards("3H, 10♠, AS", ranks=SPIN_RANKS, suits_required=True)
    assert cards == (Card("3", "H"), Card("10", "S"), Card("A", "S"))


# --- What is refused ----------------------------------------------------------------------------

BAD_ENTRIES = [
    # (text typed, options, the token quoted, words that say what is allowed)
    ("1", {}, "'1'", "the ace is A"),
    ("1H", {}, "'1H'", "the ace is A, e.g. AH"),
    ("11", {}, "'11'", "ranks run A, 2–10, J, Q, K"),
    ("12", {}, "'12'", "ranks run A, 2–10, J, Q, K"),
    ("13", {}, "'13'", "ranks run A, 2–10, J, Q, K"),
    ("0", {}, "'0'", "ranks run A, 2–10, J, Q, K"),
    ("100", {}, "'100'", "ranks run A, 2–10, J, Q, K"),
    ("11S", {}, "'11S'", "ranks run A, 2–10, J, Q, K"),
    ("55", {}, "'55'", "put a space between them: 5 5"),
    ("QK", {}, "'QK'", "two cards typed together — put a space between them: Q K"),
    ("5H6", {}, "'5H6'", "put a space between them: 5H 6"),
    ("7X", {}, "'7X'", "'X' is not a suit; suits are S, H, D, C or ♠ ♥ ♦ ♣"),
    ("10z", {}, "'10z'", "'z' is not a suit; suits are S, H, D, C or ♠ ♥ ♦ ♣"),
    ("7♥♠", {}, "'7♥♠'", "more than one suit"),
    ("KSH", {}, "'KSH'", "more than one suit — a card has one, e.g. KS or K♠"),
    ("1O", {}, "'1O'", "a ten is 10 (one, zero) or T"),
    ("lOh", {}, "'lOh'", "a ten is 10 (one, zero) or T"),
    ("xyz", {}, "'xyz'", "write a rank (A, 2–10, J, Q, K)"),
    ("?", {}, "'?'", "optionally followed by a suit (S, H, D, C or ♠ ♥ ♦ ♣)"),
    ("Q.S", {}, "'Q.S'", "is not a card"),
    ("JK", {}, "'JK'", "this game is played without jokers"),
    ("*", {"game_name": "Spot"}, "'*'", "Spot is played without jokers"),
    ("joker", {"game_name": "Spots"}, "'joker'", "Spots is played without jokers"),
    ("JKS", {"jokers": True}, "'JKS'", "a joker has no suit: write JK or *"),
    ("♠", {}, "'♠'", "a suit without a rank — write the suit right after the rank"),
    ("spades", {}, "'spades'", "write the suit as a letter or symbol right after the rank"),
    ("of", {}, "'of'", "write the rank then the suit"),
    ("S7", {}, "'S7'", "the suit first — write the rank first, e.g. 7S"),
    ("♠K", {}, "'♠K'", "write the rank first, e.g. K♠"),
    ("king", {}, "'king'", "write a king as K"),
    ("ten", {}, "'ten'", "write a ten as 10 or T"),
    (
        "2H",
        {"ranks": SPIN_RANKS, "game_name": "Spin Rummy"},
        "'2H'",
        "there are no 2s in Spin Rummy; ranks run 3–10, J, Q, K, A",
    ),
    (
        "two",
        {"ranks": SPIN_RANKS, "game_name": "Spin Rummy"},
        "'two'",
        "there are no 2s in Spin Rummy",
    ),
    ("t", {"suits_required": True}, "'t'", "give the suit of the 10"),
    ("xx", {"jokers": True}, "'xx'", "or JK for a joker"),
    ("x" * 40, {}, "'xxxxxxxxxxxxxxxxxxxx…'", "is not a card"),
]


@pytest.mark.parametrize(("text", "options", "token", "allowed"), BAD_ENTRIES)
def test_a_bad_entry_names_the_token_the_player_and_what_is_allowed(
    text: str, options: dict[str, object], token: str, allowed: str
) -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards(f"5H {text} KS", player="Rex", field="results[1].cards", **options)  # type: ignore[arg-type]
    error = caught.value
    assert error.message.startswith("Rex: ")
    assert token in error.message
    assert allowed in error.message
    assert error.message.endswith(".")
    assert error.field == "results[1].cards"
    assert error.players == ("Rex",)


def test_an_error_without_a_player_is_a_sentence_of_its_own() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("Q 11")
    assert str(caught.value) == "'11' is not a card — ranks run A, 2–10, J, Q, K."
    assert caught.value.players == ()
    assert caught.value.field is None


def test_an_error_for_a_player_starts_with_the_player() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("11", player="Rex")
    assert str(caught.value) == "Rex: '11' is not a card — ranks run A, 2–10, J, Q, K."


def test_a_card_without_its_suit_is_refused_where_suits_are_required() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("8H 7", suits_required=True)
    assert str(caught.value) == "Give the suit of the 7, e.g. 7H or 7♥."


def test_a_missing_suit_is_asked_for_by_the_players_name() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("Q", suits_required=True, player="Finn")
    assert str(caught.value) == "Finn: give the suit of the queen, e.g. QH or Q♥."


def test_a_joker_needs_no_suit_where_suits_are_required() -> None:
    assert parse_cards("JK", jokers=True, suits_required=True) == (JOKER,)


def test_JK_without_jokers_hints_at_a_jack_and_a_king() -> None:
    with pytest.raises(RuleError, match="For a jack and a king, put a space between them: J K"):
        parse_cards("JK")


def test_one_is_not_called_the_ace_in_a_game_without_aces() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("1", ranks=("2", "3", "4"))
    assert "ranks run 2–4" in str(caught.value)
    assert "ace" not in str(caught.value)


def test_the_first_bad_token_is_the_one_reported() -> None:
    with pytest.raises(RuleError, match="'11'"):
        parse_cards("A 11 12")


def test_a_long_run_of_cards_is_not_spelled_out_in_full() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("AKQJT98765432")
    assert "13 cards typed together" in str(caught.value)
    assert str(caught.value).endswith(": A K Q J 10 9 8 7 6 5 ….")


def test_a_pasted_wall_of_text_is_refused_quickly_with_a_short_message() -> None:
    with pytest.raises(RuleError) as caught:
        parse_cards("A" * 50_000 + " " + "JK" * 50_000)
    assert len(str(caught.value)) < 200


@given(st.text(max_size=40))
def test_any_text_is_either_cards_or_a_rule_error_for_the_player(text: str) -> None:
    try:
        parse_cards(text, jokers=True, player="Rex")
    except RuleError as error:
        assert error.message.startswith("Rex: ")
        assert error.players == ("Rex",)


# --- Typed back: what is shown can be read again ----------------------------------------------

cards_strategy = st.one_of(
    st.just(JOKER),
    st.builds(Card, st.sampled_from(RANKS), st.sampled_from((*SUITS, None))),
)
renderings = st.sampled_from((str, lambda c: c.code, lambda c: c.code.lower()))
separators = st.sampled_from((" ", ",", "-", ", ", " - ", "  ", ",,", "\t"))


@given(st.lists(st.tuples(cards_strategy, renderings, separators), max_size=12))
def test_cards_shown_or_coded_read_back_as_the_same_cards(
    items: list[tuple[Card, object, str]],
) -> None:
    text = "".join(render(card) + sep for card, render, sep in items)  # type: ignore[operator]
    assert parse_cards(text, jokers=True) == tuple(card for card, _, _ in items)


# --- Spot values --------------------------------------------------------------------------------


def test_spot_values_are_ace_one_face_value_and_ten_for_pictures() -> None:
    values = [spot_value(Card(rank)) for rank in RANKS]
    assert values == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]


def test_the_suit_does_not_change_a_spot_value() -> None:
    assert spot_value(Card("Q", "H")) == spot_value(Card("Q")) == 10


def test_an_ace_and_a_joker_can_be_worth_what_the_game_says() -> None:
    assert spot_value(Card("A", "S"), ace=11) == 11
    assert spot_value(Card("A"), ace=15) == 15
    assert spot_value(JOKER) == 15
    assert spot_value(JOKER, joker=25) == 25


def test_spot_totals_match_the_worked_example_of_seed_000() -> None:
    assert [spot_total(parse_cards(t)) for t in ("J-10", "A-3", "2-9", "Q-K")] == [20, 4, 11, 20]
    assert [spot_total(parse_cards(t)) for t in ("5-5-6", "K", "3-5")] == [16, 10, 8]


def test_a_spot_total_counts_aces_and_jokers_as_asked() -> None:
    cards = parse_cards("A A JK 5", jokers=True)
    assert spot_total(cards) == 1 + 1 + 15 + 5
    assert spot_total(cards, ace=11, joker=20) == 11 + 11 + 20 + 5
    assert spot_total(()) == 0


# --- One deck per hand ----------------------------------------------------------------------------


def test_a_whole_pack_shared_between_players_is_fine() -> None:
    ranks = " ".join(RANKS)
    check_deck({p: parse_cards(ranks) for p in ("Rex", "Finn", "John", "Enda")})
    check_deck({"Rex": [Card(r, s) for r in RANKS for s in SUITS]})


def test_empty_hands_are_fine() -> None:
    check_deck({})
    check_deck({"Rex": (), "Finn": ()})


def test_two_players_cannot_both_have_the_same_card() -> None:
    error = deck_error({"Rex": "QS 5", "Finn": "7 q♠"})
    assert str(error) == "Two players both have the Q♠ (Rex, Finn)."
    assert error.players == ("Rex", "Finn")


def test_one_player_cannot_have_the_same_card_twice() -> None:
    error = deck_error({"Rex": "QS 5 Q♠"})
    assert str(error) == "Rex has the Q♠ twice, but there is only one in the deck."
    assert error.players == ("Rex",)


def test_three_players_with_the_same_card_are_all_named() -> None:
    error = deck_error({"Rex": "QS", "Finn": "5", "John": "QS", "Enda": "QS"})
    assert str(error) == (
        "Three players have the Q♠ (Rex, John, Enda), but there is only one in the deck."
    )
    assert error.players == ("Rex", "John", "Enda")


def test_the_same_rank_in_different_suits_is_fine() -> None:
    check_deck({"Rex": parse_cards("QS QH"), "Finn": parse_cards("QD QC")})


def test_two_packs_allow_each_card_twice() -> None:
    check_deck({"Rex": parse_cards("QS"), "Finn": parse_cards("QS")}, packs=2)
    check_deck({"Rex": parse_cards("QS QS")}, packs=2)


def test_two_packs_do_not_allow_a_card_three_times() -> None:
    error = deck_error({"Rex": "QS QS", "Finn": "Q♠"}, packs=2)
    assert str(error) == "There are only two Q♠ in the deck, but 3 were entered (Rex 2, Finn 1)."
    assert error.players == ("Rex", "Finn")


def test_two_packs_name_one_player_with_a_card_three_times() -> None:
    error = deck_error({"Rex": "QS QS QS"}, packs=2)
    assert str(error) == "Rex has the Q♠ three times, but there are only two in the deck."


def test_unsuited_and_suited_cards_of_a_rank_count_together() -> None:
    error = deck_error({"John": "5 5 5", "Finn": "5H 5S"})
    assert str(error) == "There are only four 5s in the deck, but 5 were entered (John 3, Finn 2)."
    assert error.players == ("John", "Finn")


def test_four_of_a_rank_suited_or_not_is_fine() -> None:
    check_deck({"John": parse_cards("5 5"), "Finn": parse_cards("5H 5S")})


def test_an_unsuited_card_does_not_clash_with_a_suited_one() -> None:
    check_deck({"Rex": parse_cards("QS"), "Finn": parse_cards("Q")})


def test_one_player_with_too_many_of_a_rank_is_named() -> None:
    error = deck_error({"John": "6 6 6 6 6", "Rex": "2"})
    assert str(error) == "John has five 6s, but there are only four in the deck."
    assert error.players == ("John",)


def test_picture_cards_are_counted_by_name() -> None:
    error = deck_error({"Rex": "Q Q Q", "Finn": "Q Q"})
    assert str(error).startswith("There are only four queens in the deck")


def test_two_packs_allow_eight_of_a_rank_but_not_nine() -> None:
    check_deck({"John": parse_cards("K K K K KH KH"), "Finn": parse_cards("K K")}, packs=2)
    error = deck_error({"John": "K K K K KH KH", "Finn": "K K K"}, packs=2)
    assert str(error) == (
        "There are only eight kings in the deck, but 9 were entered (John 6, Finn 3)."
    )


def test_jokers_up_to_the_deck_are_fine() -> None:
    check_deck({"Rex": parse_cards("JK", jokers=True), "Finn": [JOKER]}, jokers=2)


def test_more_jokers_than_the_deck_has_are_refused() -> None:
    error = deck_error({"Rex": "JK", "Finn": "5", "John": "* *"}, jokers=2)
    assert (
        str(error) == "There are only two jokers in the deck, but 3 were entered (Rex 1, John 2)."
    )
    assert error.players == ("Rex", "John")


def test_a_joker_in_a_deck_without_jokers_is_refused() -> None:
    error = deck_error({"Finn": "5", "Rex": "JK"})
    assert str(error) == "Rex has a joker, but there are none in the deck."
    assert error.players == ("Rex",)


def test_one_player_with_too_many_jokers_is_named() -> None:
    error = deck_error({"Rex": "JK * JK"}, jokers=2)
    assert str(error) == "Rex has three jokers, but there are only two in the deck."


def test_a_deck_error_points_at_the_first_offending_players_field() -> None:
    fields = {"Enda": "results[0].cards", "John": "results[1].cards", "Finn": "results[2].cards"}
    error = deck_error({"Enda": "2", "John": "5 5 5", "Finn": "5H 5S"}, fields=fields)
    assert error.field == "results[1].cards"
    assert error.players == ("John", "Finn")


def test_a_deck_error_has_no_field_when_none_are_given() -> None:
    assert deck_error({"Rex": "QS", "Finn": "QS"}).field is None


def test_the_card_met_first_in_the_hands_is_the_one_reported() -> None:
    hands = {"Rex": "9 KS 7", "Finn": "7 7 KS", "John": "7 7"}
    assert "K♠" in str(deck_error(hands))
    hands = {"Rex": "9 7 KS", "Finn": "7 7 KS", "John": "7 7"}
    assert str(deck_error(hands)) == (
        "There are only four 7s in the deck, but 5 were entered (Rex 1, Finn 2, John 2)."
    )


def test_the_same_hands_always_give_the_same_message() -> None:
    hands = {"Rex": "QS 5 5 JK", "Finn": "QS 5 5 5", "John": "JK JK"}
    assert len({str(deck_error(hands, jokers=2)) for _ in range(5)}) == 1
