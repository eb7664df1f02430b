"""Rummy as RULES.md §4 reads it: deal sizes, going out, both scorings, options, the game's end."""

from __future__ import annotations

from typing import Any

import pytest

from ledger.rules import rummy
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.errors import RuleError
from ledger.rules.game import join, leave
from ledger.rules.registry import GAMES

GAME = rummy.GAME


def options(**given: Any) -> dict[str, Any]:
    return GAME.check_options(given)


def start(players: str = "Enda John Rex", dealer: str = "Enda", **given: Any) -> State:
    return GAME.new_state(players.split(), dealer, options(**given))


def entry(out: str | None, rummy_: Any = False, **cards: Any) -> HandEntry:
    """One result per keyword: a string is cards, an int a spot total."""
    results = tuple(
        ResultEntry(p, spots=v) if isinstance(v, int) else ResultEntry(p, cards=v)
        for p, v in cards.items()
    )
    return HandEntry(results, out=out, rummy=rummy_)


def play(state: State, hand: HandEntry, **given: Any) -> HandOutcome:
    return GAME.play(state, hand, options(**given))


def points(outcome: HandOutcome) -> dict[str, int | None]:
    return {r.player: r.points for r in outcome.results}


def error(state: State, hand: HandEntry, **given: Any) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, hand, **given)
    return caught.value


# --- The game and its options ------------------------------------------------------------------


def test_rummy_is_registered_as_a_points_game_with_open_seating_and_no_fixed_length() -> None:
    assert GAMES["rummy"] is GAME
    assert (GAME.name, GAME.money, GAME.open_seating) == ("Rummy", False, True)
    assert (GAME.min_players, GAME.max_players) == (2, 7)
    assert GAME.progress(start(), {}) is None


def test_the_default_options_are_winner_scoring_double_for_rummy_low_aces_one_pack_to_100() -> None:
    assert GAME.defaults() == {
        "scoring": "winner",
        "rummy_bonus": "double",
        "ace_value": 1,
        "jokers": 0,
        "packs": 1,
        "target": 100,
        "entry": "cards",
        # RULES.md §7: not played for money unless a stake is given.
        "stake": 0,
        "unit_value": "0.01",
        "currency": "EUR",
        "payout": "winner",
    }


@pytest.mark.parametrize(
    "name, value",
    [("scoring", "lowest"), ("rummy_bonus", "triple"), ("ace_value", 14), ("jokers", 1),
     ("packs", 3), ("entry", "photos"), ("target", 0)],
)  # fmt: skip
def test_an_option_outside_its_choices_is_refused(name: str, value: Any) -> None:
    with pytest.raises(RuleError) as caught:
        options(**{name: value})
    assert caught.value.field == f"options.{name}"


def test_numeric_options_typed_as_text_in_a_form_are_accepted() -> None:
    assert options(ace_value="15", jokers="2", packs="2", target="250") == {
        **GAME.defaults(), "ace_value": 15, "jokers": 2, "packs": 2, "target": 250,
    }  # fmt: skip


# --- Seats and the deal ------------------------------------------------------------------------


def test_options_not_given_take_their_defaults() -> None:
    outcome = GAME.play(start(), entry("Enda", John="5", Rex="K"), {})
    assert points(outcome)["Enda"] == 15
    rummy.check_seats(("A", "B", "C", "D", "E", "F"), {})
    with pytest.raises(RuleError, match="at most 6 players"):
        rummy.check_seats(("A", "B", "C", "D", "E", "F", "G"), {})


def test_a_pot_carried_from_spot_does_not_open_a_game_of_rummy() -> None:
    state = GAME.new_state(["Enda", "John"], "Enda", options(), 40, carried_antes={"Enda": 40})
    assert (state.pot, state.carried_in, state.pot_antes) == (0, 0, {})
    assert rummy.start(["Enda", "John"], "Enda", options(), 40).pot == 0


def test_one_pack_seats_two_to_six_players() -> None:
    assert start("A B", dealer="A").seats == ("A", "B")
    assert len(start("A B C D E F", dealer="A").seats) == 6
    with pytest.raises(RuleError, match="at least|2 to 7"):
        start("A", dealer="A")


def test_seven_players_need_two_packs_and_the_message_says_so() -> None:
    with pytest.raises(RuleError, match="one pack is played by at most 6 players.*two packs"):
        start("A B C D E F G", dealer="A")
    assert len(start("A B C D E F G", dealer="A", packs=2).seats) == 7
    with pytest.raises(RuleError):
        start("A B C D E F G H", dealer="A", packs=2)


def test_a_seventh_player_cannot_join_a_one_pack_game_but_can_join_a_two_pack_game() -> None:
    six = start("A B C D E F", dealer="A")
    with pytest.raises(RuleError, match="at most 6 players"):
        join(GAME, six, "G", "F", options())
    six_two_packs = start("A B C D E F", dealer="A", packs=2)
    assert join(GAME, six_two_packs, "G", "F", options(packs=2)).seats[-1] == "G"


def test_the_deal_passes_clockwise_and_the_player_left_of_the_dealer_leads() -> None:
    state = start(dealer="John")
    first = play(state, entry("Enda", Enda="", John="5", Rex="K"))
    assert (first.number, first.dealer, first.leader) == (1, "John", "Rex")
    second = play(first.state, entry("Enda", Enda="", John="5", Rex="K"))
    assert (second.number, second.dealer, second.leader) == (2, "Rex", "Enda")
    assert second.state.dealer == "Enda"


def test_results_come_back_in_seat_order_whatever_order_they_were_typed_in() -> None:
    hand = HandEntry(
        (ResultEntry("Rex", "K"), ResultEntry("Enda", ""), ResultEntry("John", "5")), out="enda"
    )
    outcome = play(start(), hand)
    assert [r.player for r in outcome.results] == ["Enda", "John", "Rex"]
    assert outcome.out == "Enda"


def test_playing_a_hand_leaves_the_state_it_was_given_untouched() -> None:
    state = start()
    before = state.to_dict()
    play(state, entry("Enda", Enda="", John="5", Rex="K"))
    assert state.to_dict() == before


# --- Going out ---------------------------------------------------------------------------------


def test_exactly_one_player_goes_out_in_every_hand() -> None:
    problem = error(start(), entry(None, Enda="2", John="5", Rex="K"))
    assert problem.field == "out"
    assert "goes out" in problem.message


def test_the_player_out_may_leave_their_result_out_entirely() -> None:
    outcome = play(start(), entry("Enda", John="5", Rex="K"))
    enda = outcome.results[0]
    assert (enda.player, enda.cards, enda.spots, enda.points) == ("Enda", (), 0, 15)


def test_the_player_out_has_no_cards_left() -> None:
    problem = error(start(), entry("Enda", Enda="3", John="5", Rex="K"))
    assert (problem.field, problem.players) == ("results[0].cards", ("Enda",))
    assert "went out" in problem.message


def test_the_player_out_may_say_a_total_of_zero_even_when_cards_are_asked_for() -> None:
    outcome = play(start(), entry("Enda", Enda=0, John="5", Rex="K"))
    assert points(outcome) == {"Enda": 15, "John": 0, "Rex": 0}
    problem = error(start(), entry("Enda", Enda=0, John=5, Rex="K"))
    assert (problem.field, problem.players) == ("results[1].spots", ("John",))


def test_a_player_who_did_not_go_out_has_cards_left() -> None:
    problem = error(start(), entry("Enda", Enda="", John="", Rex="K"))
    assert (problem.field, problem.players) == ("results[1].cards", ("John",))


def test_nobody_sits_out_or_enters_melds_in_rummy() -> None:
    hand = HandEntry((ResultEntry("Enda"), ResultEntry("John", sitting_out=True),
                      ResultEntry("Rex", "K")), out="Enda")  # fmt: skip
    assert error(start(), hand).field == "results[1]"
    body = {"results": [{"player": "Enda"}, {"player": "John", "melds": ["5 5 5"]}], "out": "Enda"}
    with pytest.raises(RuleError) as caught:
        GAME.read_entry(body)
    assert caught.value.field == "results[1].melds"


def test_a_hand_on_a_finished_game_is_refused() -> None:
    state = start(target=10)
    over = play(state, entry("Enda", Enda="", John="K", Rex="5"), target=10).state
    assert over.finished
    with pytest.raises(RuleError, match="The game is over: no more hands can be added."):
        play(over, entry("Enda", Enda="", John="K", Rex="5"), target=10)


# --- Cards each --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, packs, each",
    [(2, 1, 10), (3, 1, 7), (4, 1, 7), (5, 1, 6), (6, 1, 6),
     (2, 2, 10), (3, 2, 10), (4, 2, 10), (6, 2, 10), (7, 2, 10)],
)  # fmt: skip
def test_cards_dealt_follow_the_player_count_and_the_packs(
    players: int, packs: int, each: int
) -> None:
    assert rummy.cards_each(players, packs) == each


def test_a_leftover_hand_holds_at_most_the_cards_dealt() -> None:
    state = start()  # three players: 7 cards each
    assert play(state, entry("Enda", Enda="", John="A 2 3 4 5 6 7", Rex="K")).results[1].spots == 28
    problem = error(state, entry("Enda", Enda="", John="A 2 3 4 5 6 7 8", Rex="K"))
    assert (problem.field, problem.players) == ("results[1].cards", ("John",))
    assert problem.message == (
        "With 3 players each player is dealt 7 cards, so John cannot have 8 left."
    )


def test_two_players_hold_up_to_ten_and_two_packs_give_everyone_ten() -> None:
    two = start("A B", dealer="A")
    play(two, entry("A", A="", B="A 2 3 4 5 6 7 8 9 10"))
    assert error(two, entry("A", A="", B="A 2 3 4 5 6 7 8 9 10 J")).players == ("B",)
    four = start("A B C D", dealer="A", packs=2)
    play(four, entry("A", A="", B="A 2 3 4 5 6 7 8 9 10", C="K", D="Q"), packs=2)


def test_the_cards_each_follow_the_players_seated_now_after_a_join() -> None:
    state = start("A B C D", dealer="A")
    seven = "A 2 3 4 5 6 7"
    play(state, entry("A", A="", B=seven, C="K", D="Q"))
    five = join(GAME, state, "E", "D", options())
    problem = error(five, entry("A", A="", B=seven, C="K", D="Q", E="J"))
    assert "With 5 players each player is dealt 6 cards" in problem.message


def test_a_player_who_left_keeps_their_score_and_needs_no_result() -> None:
    state = play(start(), entry("Enda", John="5", Rex="K")).state
    left = leave(GAME, state, "Rex", pass_deal=1)
    outcome = play(left, entry("John", Enda="4"))
    assert outcome.state.scores == {"Enda": 15, "John": 4, "Rex": 0}


# --- One deck per hand -------------------------------------------------------------------------


def test_the_same_card_in_two_hands_is_refused_with_one_pack() -> None:
    problem = error(start(), entry("Enda", Enda="", John="QS 3", Rex="Q♠"))
    assert problem.players == ("John", "Rex")
    assert "Q♠" in problem.message


def test_two_packs_allow_two_of_a_card_but_not_three() -> None:
    state = start(packs=2)
    play(state, entry("Enda", Enda="", John="QS", Rex="QS"), packs=2)
    problem = error(state, entry("Enda", Enda="", John="QS QS", Rex="QS"), packs=2)
    assert problem.players == ("John", "Rex")
    assert "Q♠" in problem.message


def test_no_rank_more_often_than_four_per_pack_counting_unsuited_cards() -> None:
    problem = error(start(), entry("Enda", Enda="", John="K K KS", Rex="KH K"))
    assert problem.players == ("John", "Rex")
    play(start(packs=2), entry("Enda", Enda="", John="K K KS", Rex="KH K"), packs=2)


def test_jokers_are_refused_unless_the_session_plays_with_them() -> None:
    problem = error(start(), entry("Enda", Enda="", John="JK", Rex="K"))
    assert (problem.field, problem.players) == ("results[1].cards", ("John",))
    assert "joker" in problem.message


def test_a_joker_left_in_hand_is_worth_15() -> None:
    outcome = play(start(jokers=2), entry("Enda", Enda="", John="JK 3", Rex="*"), jokers=2)
    assert [r.spots for r in outcome.results] == [0, 18, 15]
    assert points(outcome)["Enda"] == 33


def test_jokers_count_two_per_pack() -> None:
    state = start(jokers=2)
    problem = error(state, entry("Enda", Enda="", John="JK JK", Rex="JK"), jokers=2)
    assert problem.players == ("John", "Rex")
    both = start(jokers=2, packs=2)
    play(both, entry("Enda", Enda="", John="JK JK", Rex="JK JK"), jokers=2, packs=2)
    five = entry("Enda", Enda="", John="JK JK JK", Rex="JK JK")
    assert error(both, five, jokers=2, packs=2).players == ("John", "Rex")


# --- Scoring -----------------------------------------------------------------------------------


def test_with_winner_scoring_the_player_out_scores_every_other_hand() -> None:
    outcome = play(start(), entry("John", Enda="K Q 3", John="", Rex="A 9"))
    assert points(outcome) == {"Enda": 0, "John": 33, "Rex": 0}
    assert [r.spots for r in outcome.results] == [23, 0, 10]
    assert outcome.winners == ("John",)
    assert outcome.state.scores == {"Enda": 0, "John": 33, "Rex": 0}
    assert (outcome.movements, outcome.pot_before, outcome.pot_after) == ((), None, None)


def test_with_penalty_scoring_each_other_player_adds_their_own_hand() -> None:
    outcome = play(start(scoring="penalty"), entry("John", Enda="K Q 3", John="", Rex="A 9"),
                   scoring="penalty")  # fmt: skip
    assert points(outcome) == {"Enda": 23, "John": 0, "Rex": 10}
    assert outcome.winners == ("John",)


def test_going_rummy_doubles_the_winners_points_by_default() -> None:
    outcome = play(start(), entry("John", rummy_=True, Enda="K Q 3", Rex="A 9"))
    assert points(outcome) == {"Enda": 0, "John": 66, "Rex": 0}


def test_going_rummy_with_penalty_scoring_doubles_each_other_players_penalty() -> None:
    outcome = play(start(scoring="penalty"), entry("John", rummy_=True, Enda="K Q 3", Rex="A 9"),
                   scoring="penalty")  # fmt: skip
    assert points(outcome) == {"Enda": 46, "John": 0, "Rex": 20}


def test_going_rummy_with_bonus10_gives_the_winner_ten_more_instead_of_doubling() -> None:
    outcome = play(start(), entry("John", rummy_=True, Enda="K Q 3", Rex="A 9"),
                   rummy_bonus="bonus10")  # fmt: skip
    assert points(outcome) == {"Enda": 0, "John": 43, "Rex": 0}


def test_going_rummy_with_bonus10_and_penalty_scoring_takes_ten_off_the_winner() -> None:
    outcome = play(start(), entry("John", rummy_=True, Enda="K Q 3", Rex="A 9"),
                   rummy_bonus="bonus10", scoring="penalty")  # fmt: skip
    assert points(outcome) == {"Enda": 23, "John": -10, "Rex": 10}
    assert outcome.state.scores["John"] == -10


@pytest.mark.parametrize("ace, value", [(1, 1), (11, 11), (15, 15)])
def test_an_ace_left_in_hand_is_worth_the_ace_value_option(ace: int, value: int) -> None:
    outcome = play(start(ace_value=ace), entry("Enda", John="A", Rex="A 2"), ace_value=ace)
    assert [r.spots for r in outcome.results] == [0, value, value + 2]
    assert points(outcome)["Enda"] == 2 * value + 2


def test_face_cards_are_worth_ten_and_numbers_their_face_value() -> None:
    outcome = play(start(), entry("Enda", John="J Q K", Rex="10 7"))
    assert [r.spots for r in outcome.results] == [0, 30, 17]


# --- Totals ------------------------------------------------------------------------------------


def test_totals_are_refused_when_the_session_asks_for_cards() -> None:
    problem = error(start(), entry("Enda", John=12, Rex="K"))
    assert (problem.field, problem.players) == ("results[0].spots", ("John",))


def test_with_totals_a_player_may_give_a_total_or_cards() -> None:
    outcome = play(start(entry="totals"), entry("Enda", Enda=0, John=12, Rex="K"), entry="totals")
    assert [r.spots for r in outcome.results] == [0, 12, 10]
    assert points(outcome)["Enda"] == 22


def test_a_total_is_zero_for_the_player_out_and_at_least_one_for_the_others() -> None:
    state = start(entry="totals")
    assert error(state, entry("Enda", Enda=3, John=12, Rex=4), entry="totals").players == ("Enda",)
    assert error(state, entry("Enda", Enda=0, John=0, Rex=4), entry="totals").players == ("John",)
    assert error(state, entry("Enda", John=-5, Rex=4), entry="totals").players == ("John",)


def test_a_total_must_be_a_whole_number() -> None:
    half = ResultEntry("John", spots=2.5)  # type: ignore[arg-type]
    hand = HandEntry((half, ResultEntry("Rex", spots=4)), out="Enda")
    assert "whole number" in error(start(entry="totals"), hand, entry="totals").message


@pytest.mark.parametrize(
    "players, given, most",
    [
        ("A B", {}, 100),  # ten cards: the four kings, queens, jacks and tens are 16 tens
        ("A B C", {}, 70),
        ("A B C D E", {}, 60),
        ("A B C", {"ace_value": 15}, 90),  # four aces, then three tens
        ("A B", {"ace_value": 11, "jokers": 2}, 30 + 44 + 40),
        ("A B C", {"packs": 2, "jokers": 2, "ace_value": 15}, 4 * 15 + 6 * 15),
    ],
)
def test_a_total_is_at_most_what_a_full_leftover_hand_of_this_deck_is_worth(
    players: str, given: dict[str, Any], most: int
) -> None:
    chosen: dict[str, Any] = {"entry": "totals", **given}
    state = start(players, dealer="A", **chosen)
    others = {p: 1 for p in players.split()[2:]}
    play(state, entry("A", B=most, **others), **chosen)
    problem = error(state, entry("A", B=most + 1, **others), **chosen)
    assert (problem.field, problem.players) == ("results[0].spots", ("B",))
    assert f"at most {most}" in problem.message


# --- The end of the game -----------------------------------------------------------------------


def test_the_game_ends_after_the_hand_in_which_a_score_reaches_the_target() -> None:
    state = start(target=50)
    first = play(state, entry("John", Enda="K Q J", Rex="9"), target=50)
    assert (first.state.finished, first.state.scores["John"]) == (False, 39)
    second = play(first.state, entry("John", Enda="A", Rex="10"), target=50)
    assert second.state.finished
    assert second.state.winners == ("John",)
    assert second.state.hands_played == 2


def test_with_winner_scoring_the_highest_score_wins() -> None:
    state = start(target=20)
    first = play(state, entry("John", Enda="5", Rex="10"), target=20)
    second = play(first.state, entry("Rex", Enda="5", John="10"), target=20)
    assert second.state.scores == {"Enda": 0, "John": 15, "Rex": 15}
    assert not second.state.finished
    third = play(second.state, entry("Rex", Enda="2", John="3"), target=20)
    assert (third.state.finished, third.state.winners) == (True, ("Rex",))


def test_with_penalty_scoring_the_lowest_score_wins_when_someone_reaches_the_target() -> None:
    given: dict[str, Any] = {"scoring": "penalty", "target": 30}
    state = start(**given)
    first = play(state, entry("John", Enda="K Q", Rex="5"), **given)
    assert not first.state.finished
    second = play(first.state, entry("Rex", Enda="K", John="3"), **given)
    assert second.state.scores == {"Enda": 30, "John": 3, "Rex": 5}
    assert (second.state.finished, second.state.winners) == (True, ("John",))


def test_with_penalty_scoring_equal_lowest_scores_share_the_win() -> None:
    given: dict[str, Any] = {"scoring": "penalty", "target": 30}
    state = start("Ann Bob Cy Dee", dealer="Ann", **given)
    first = play(state, entry("Ann", Bob="6", Cy="10", Dee="K Q"), **given)
    second = play(first.state, entry("Dee", Ann="8", Bob="2", Cy="K Q"), **given)
    assert second.state.scores == {"Ann": 8, "Bob": 8, "Cy": 30, "Dee": 20}
    assert (second.state.finished, second.state.winners) == (True, ("Ann", "Bob"))
