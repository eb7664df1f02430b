"""Spin Rummy as RULES.md §5 reads it: contracts, melds, the best partition, rounds and solo."""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.rules import spin
from ledger.rules.base import HandEntry, HandOutcome, ResultEntry, State
from ledger.rules.cards import Card, parse_cards
from ledger.rules.errors import RuleError
from ledger.rules.registry import GAMES
from ledger.rules.spin import SpinResult

GAME = spin.GAME


def start(players: str = "Ann Bob", dealer: str = "Ann") -> State:
    return GAME.new_state(players.split(), dealer, GAME.check_options({}))


def entry(out: str | None = None, rummy: Any = False, **given: Any) -> HandEntry:
    """One result per keyword: a string is the cards in hand, a tuple the melds laid out."""
    results = tuple(
        SpinResult(p, melds=v) if isinstance(v, tuple) else SpinResult(p, cards=v)
        for p, v in given.items()
    )
    return HandEntry(results, out=out, rummy=rummy)


def play(state: State, hand: HandEntry) -> HandOutcome:
    return GAME.play(state, hand, {})


def at_round(n: int, players: str = "Ann Bob") -> State:
    """A game about to play round ``n``, every earlier round scoring nothing."""
    state = start(players)
    for _ in range(n - 1):
        state = play(state, entry(**{p: "" for p in state.seats})).state
    return state


def scored(n: int, cards: str) -> int:
    """What Ann scores in round ``n`` holding ``cards``."""
    points = play(at_round(n), entry(Ann=cards, Bob="")).results[0].points
    assert points is not None
    return points


def error(state: State, hand: HandEntry) -> RuleError:
    with pytest.raises(RuleError) as caught:
        play(state, hand)
    return caught.value


def shown(melds: tuple[tuple[Card, ...], ...]) -> list[str]:
    return [" ".join(c.code for c in m) for m in melds]


# --- The game ----------------------------------------------------------------------------------


def test_spin_rummy_is_a_points_game_for_one_or_two_players_with_only_money_options() -> None:
    assert GAMES["spin"] is GAME
    assert (GAME.name, GAME.money, GAME.open_seating) == ("Spin Rummy", False, False)
    # RULES.md §7: two players may play for a stake; none by default.
    assert (GAME.min_players, GAME.max_players, GAME.defaults()) == (
        1,
        2,
        {"stake": 0, "unit_value": "0.01", "currency": "EUR", "payout": "winner"},
    )
    with pytest.raises(RuleError):
        start("Ann Bob Cy")


def test_progress_names_each_rounds_contract_and_tie_breaks_replay_round_four() -> None:
    words = [GAME.progress(at_round(n), {}) for n in (1, 2, 3, 4, 5, 6)]
    assert [(p.round, p.hand, p.hands_in_round, p.rounds) for p in words if p] == [
        (n, 1, 1, 4) for n in (1, 2, 3, 4, 5, 6)
    ]
    assert [p.contract for p in words if p] == [
        "two melds", "two runs", "one run and one set", "two sets", "two sets", "two sets",
    ]  # fmt: skip


# --- Melds -------------------------------------------------------------------------------------


def test_a_set_is_three_of_a_rank_in_different_suits_and_scores_the_rank() -> None:
    assert spin.kind(parse_cards("7S 7H 7D")) == "set"
    assert spin.score(parse_cards("7S 7H 7D")) == 7
    assert spin.kind(parse_cards("7S 7H 8D")) is None
    assert spin.score(parse_cards("AS AH AD")) == 14


def test_a_run_is_three_in_suit_in_sequence_and_scores_its_lowest_card() -> None:
    assert spin.kind(parse_cards("10C JC QC")) == "run"
    assert spin.score(parse_cards("QC 10C JC")) == 10
    assert spin.kind(parse_cards("10C JC KC")) is None
    assert spin.kind(parse_cards("10C JC QH")) is None


def test_aces_are_high_only_so_q_k_a_is_a_run_and_a_3_4_is_not() -> None:
    assert spin.kind(parse_cards("QS KS AS")) == "run"
    assert spin.score(parse_cards("QS KS AS")) == 12
    assert spin.kind(parse_cards("AS 3S 4S")) is None
    assert scored(2, "AS 3S 4S") == 0


def test_card_values_run_from_3_to_10_then_j_11_q_12_k_13_a_14() -> None:
    assert spin.VALUES == {
        "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
        "J": 11, "Q": 12, "K": 13, "A": 14,
    }  # fmt: skip


# --- Contracts ---------------------------------------------------------------------------------

SET_AND_RUN = "7S 7H 7D 9C 10C JC"  # a set of 7s (7) and a run from 9 (9)
TWO_RUNS = "3H 4H 5H 10D JD QD"  # runs from 3 (3) and from 10 (10)
TWO_SETS = "5S 5H 5D KS KH KC"  # sets of 5s (5) and of kings (13)


def test_round_one_scores_two_melds_of_any_kind() -> None:
    assert (scored(1, SET_AND_RUN), scored(1, TWO_RUNS), scored(1, TWO_SETS)) == (16, 13, 18)


def test_round_two_scores_runs_only() -> None:
    assert (scored(2, SET_AND_RUN), scored(2, TWO_RUNS), scored(2, TWO_SETS)) == (9, 13, 0)


def test_round_three_scores_one_run_and_one_set() -> None:
    assert (scored(3, SET_AND_RUN), scored(3, TWO_RUNS), scored(3, TWO_SETS)) == (16, 10, 13)


def test_round_four_scores_sets_only() -> None:
    assert (scored(4, SET_AND_RUN), scored(4, TWO_RUNS), scored(4, TWO_SETS)) == (7, 0, 18)


def test_the_melds_that_scored_are_given_with_the_score_as_spots_and_points() -> None:
    outcome = play(at_round(3), entry(Ann=TWO_RUNS, Bob=SET_AND_RUN))
    ann, bob = outcome.results
    assert (ann.spots, ann.points, shown(ann.melds)) == (10, 10, ["10D JD QD"])
    assert (bob.spots, bob.points) == (16, 16)
    assert sorted(shown(bob.melds)) == ["7S 7H 7D", "9C 10C JC"]
    assert len(ann.cards) == 6


# --- The best partition ------------------------------------------------------------------------


def test_the_set_that_would_take_the_runs_card_is_made_from_the_other_three() -> None:
    # Four 6s: a greedy choice of the first set of 6s can take the 6♠ and lose the run.
    outcome = play(at_round(1), entry(Ann="6S 6H 6C 6D 7S 8S", Bob=""))
    ann = outcome.results[0]
    assert ann.points == 12
    assert sorted(shown(ann.melds)) == ["6H 6D 6C", "6S 7S 8S"]


def test_a_high_set_that_shares_a_card_with_a_low_run_gives_way_when_both_can_score() -> None:
    # The set of 9s (9) beats the run 7-8-9 (7), but with the fourth 9 both score: 16.
    assert scored(3, "9S 9H 9D 9C 7S 8S") == 16
    # Without the fourth 9 only one can score, and the higher one is taken.
    assert scored(3, "9S 9H 9D 7S 8S") == 9


def test_the_higher_of_a_set_and_a_run_sharing_a_card_is_taken() -> None:
    assert scored(1, "QS KS AS AH AD 3C") == 14  # aces (14) over Q-K-A (12)
    assert scored(2, "QS KS AS AH AD 3C") == 12  # runs only: Q-K-A


def test_only_as_many_melds_as_the_contract_counts_and_a_card_counts_once() -> None:
    assert scored(1, "3S 4S 5S 6S 7S 8S") == 3 + 6
    assert scored(3, "3S 4S 5S 6S 7S 8S") == 6  # one run only


# --- Entering cards ----------------------------------------------------------------------------


def test_there_are_no_twos_in_spin_rummy() -> None:
    problem = error(start(), entry(Ann="2S 3S 4S", Bob=""))
    assert (problem.field, problem.players) == ("results[0].cards", ("Ann",))
    assert "Spin Rummy" in problem.message


def test_every_card_needs_its_suit() -> None:
    problem = error(start(), entry(Ann="QS KS A", Bob=""))
    assert (problem.field, problem.players) == ("results[0].cards", ("Ann",))
    assert "suit" in problem.message


def test_a_hand_at_the_tally_holds_at_most_six_cards() -> None:
    problem = error(start(), entry(Ann="3S 4S 5S 6S 7S 8S 9S", Bob=""))
    assert (problem.field, problem.players) == ("results[0].cards", ("Ann",))
    assert scored(1, "3S 4S 5S") == 3


def test_each_face_exists_once_across_both_hands() -> None:
    problem = error(start(), entry(Ann="QS KS AS", Bob="QS QH QD"))
    assert problem.players == ("Ann", "Bob")
    assert "Q♠" in problem.message


def test_totals_and_sitting_out_are_refused() -> None:
    hand = HandEntry((ResultEntry("Ann", spots=10), ResultEntry("Bob", "")))
    assert error(start(), hand).field == "results[0]"
    hand = HandEntry((ResultEntry("Ann", "3S 4S 5S"), ResultEntry("Bob", sitting_out=True)))
    assert error(start(), hand).field == "results[1]"


# --- Entering melds ----------------------------------------------------------------------------


def test_melds_laid_out_score_like_the_same_cards_typed_as_a_hand() -> None:
    outcome = play(start(), entry(Ann=("7S 7H 7D", "9C 10C JC"), Bob="3H 4H 5H"))
    assert [r.points for r in outcome.results] == [16, 3]
    assert len(outcome.results[0].cards) == 6


def test_of_the_melds_laid_out_only_those_the_contract_allows_score() -> None:
    assert play(at_round(2), entry(Ann=("7S 7H 7D", "9C 10C JC"), Bob="")).results[0].points == 9
    three = play(at_round(3), entry(Ann=("3H 4H 5H", "10D JD QD"), Bob=""))
    assert (three.results[0].points, shown(three.results[0].melds)) == (10, ["10D JD QD"])


def test_a_meld_that_is_neither_a_set_nor_a_run_is_named_in_the_error() -> None:
    problem = error(start(), entry(Ann=("7S 7H 7D", "9C 10C QC"), Bob=""))
    assert (problem.field, problem.players) == ("results[0].melds[1]", ("Ann",))
    assert "Ann's meld 2 (9♣ 10♣ Q♣) is not a meld" in problem.message


def test_a_meld_is_three_cards() -> None:
    assert error(start(), entry(Ann=("7S 7H",), Bob="")).field == "results[0].melds[0]"
    assert error(start(), entry(Ann=("7S 7H 7D 7C",), Bob="")).field == "results[0].melds[0]"


def test_a_card_in_two_melds_is_refused() -> None:
    problem = error(start(), entry(Ann=("7S 7H 7D", "7S 8S 9S"), Bob=""))
    assert problem.players == ("Ann",)
    assert "7♠" in problem.message


def test_a_bad_card_in_a_meld_points_at_that_meld() -> None:
    problem = error(start(), entry(Ann=("7S 7H 7D", "2S 3S 4S"), Bob=""))
    assert (problem.field, problem.players) == ("results[0].melds[1]", ("Ann",))


def test_at_most_two_melds_fit_in_a_hand_of_six() -> None:
    problem = error(start(), entry(Ann=("7S 7H 7D", "3S 4S 5S", "9C 10C JC"), Bob=""))
    assert (problem.field, problem.players) == ("results[0].melds", ("Ann",))


# --- Rounds, dealers and the end ---------------------------------------------------------------


def test_player_a_deals_and_starts_rounds_one_and_three_the_other_rounds_two_and_four() -> None:
    state = start(dealer="Bob")  # Bob deals first, so Bob is player A
    seen = []
    for _ in range(4):
        outcome = play(state, entry(Ann="", Bob=""))
        seen.append((outcome.number, outcome.dealer, outcome.leader))
        state = outcome.state
    assert seen == [(1, "Bob", "Bob"), (2, "Ann", "Ann"), (3, "Bob", "Bob"), (4, "Ann", "Ann")]


def test_after_round_four_the_highest_total_wins() -> None:
    state = at_round(4)
    outcome = play(state, entry(Ann=TWO_SETS, Bob="5C 6C 7C"))
    assert outcome.state.finished
    assert (outcome.state.winners, outcome.winners) == (("Ann",), ("Ann",))
    with pytest.raises(RuleError, match="The game is over: no more hands can be added."):
        play(outcome.state, entry(Ann="", Bob=""))


def test_no_game_ends_before_round_four() -> None:
    state = start()
    for _ in range(3):
        state = play(state, entry(Ann=TWO_SETS, Bob="")).state
        assert not state.finished
    assert state.scores == {"Ann": 18 + 0 + 13, "Bob": 0}  # round 2 scores no sets


def test_a_tie_after_round_four_is_broken_by_rounds_of_two_sets_that_keep_alternating() -> None:
    four = play(at_round(4), entry(Ann="7S 7H 7D", Bob="4S 4H 4D 3S 3H 3D"))
    assert four.state.scores == {"Ann": 7, "Bob": 7}
    assert (four.state.finished, four.state.winners) == (False, ())
    five = play(four.state, entry(Ann="", Bob=""))  # still level: another round
    assert (five.number, five.dealer, five.leader) == (5, "Ann", "Ann")  # Ann is player A
    assert (five.state.finished, five.state.dealer) == (False, "Bob")
    six = play(five.state, entry(Ann="3S 4S 5S", Bob="3H 3D 3C"))
    assert (six.number, six.dealer, six.leader) == (6, "Bob", "Bob")
    assert [r.points for r in six.results] == [0, 3]  # round 4's contract: sets only
    assert (six.state.finished, six.state.winners) == (True, ("Bob",))


def test_the_rounds_winner_is_whoever_scored_more_in_it_and_nobody_if_nobody_scored() -> None:
    assert play(start(), entry(Ann="3S 4S 5S", Bob="6S 7S 8S")).winners == ("Bob",)
    assert play(start(), entry(Ann="3S 4S 5S", Bob="3H 3D 3C")).winners == ("Ann", "Bob")
    assert play(start(), entry(Ann="", Bob="")).winners == ()


def test_who_called_rummy_is_recorded_but_scores_nothing_and_still_shows_their_hand() -> None:
    outcome = play(start(), entry(out="bob", Ann="3S 4S 5S", Bob="6S 7S 8S"))
    assert (outcome.out, [r.points for r in outcome.results]) == ("Bob", [3, 6])
    problem = error(start(), entry(out="Bob", Ann="3S 4S 5S"))
    assert problem.players == ("Bob",)


def test_a_pot_carried_from_spot_does_not_open_a_game_of_spin_rummy() -> None:
    state = GAME.new_state(["Ann", "Bob"], "Ann", {}, 40, carried_antes={"Ann": 40})
    assert (state.pot, state.carried_in, state.pot_antes) == (0, 0, {})


def test_going_rummy_is_not_a_spin_rummy_bonus() -> None:
    assert error(start(), entry(out="Ann", rummy=True, Ann="", Bob="")).field == "rummy"


def test_playing_a_round_leaves_the_state_it_was_given_untouched() -> None:
    state = start()
    before = state.to_dict()
    play(state, entry(Ann=TWO_SETS, Bob=""))
    assert state.to_dict() == before


# --- Solo --------------------------------------------------------------------------------------


def solo(*hands: str) -> State:
    state = start("Ann", dealer="Ann")
    for cards in hands:
        outcome = play(state, entry(Ann=cards))
        assert (outcome.dealer, outcome.leader) == ("Ann", "Ann")
        state = outcome.state
    return state


def test_solo_play_is_four_rounds_won_with_at_least_60_points() -> None:
    # 16 + 13 + 13 + 18 = 60
    state = solo(SET_AND_RUN, TWO_RUNS, "3H 4H 5H 10S 10H 10C", TWO_SETS)
    assert state.scores == {"Ann": 60}
    assert (state.finished, state.winners) == (True, ("Ann",))


def test_solo_play_under_60_points_is_finished_without_a_winner() -> None:
    state = solo(SET_AND_RUN, TWO_RUNS, "3H 4H 5H 10S 10H 10C", "5S 5H 5D QS QH QC")
    assert state.scores == {"Ann": 59}
    assert (state.finished, state.winners) == (True, ())


def test_solo_play_does_not_end_before_round_four() -> None:
    state = solo(TWO_SETS, TWO_SETS, TWO_SETS)
    assert not state.finished
    progress = GAME.progress(state, {})
    assert progress is not None and progress.contract == "two sets"
    assert GAME.progress(solo(TWO_SETS, TWO_SETS, TWO_SETS, TWO_SETS), {}) is None


# --- The partition search against brute force ----------------------------------------------------

DECK = [Card(rank, suit) for rank in spin.SPIN_RANKS for suit in "SHDC"]


def brute_force(cards: tuple[Card, ...], goal: spin.Contract) -> int:
    """Each card in meld 1, meld 2 or neither, every way: the best score the contract allows."""
    best = 0
    for labels in product((0, 1, 2), repeat=len(cards)):
        melds = [tuple(c for c, label in zip(cards, labels, strict=True) if label == k)
                 for k in (1, 2)]  # fmt: skip
        melds = [m for m in melds if m]
        kinds = [spin.kind(m) for m in melds]
        if None in kinds or len(melds) > goal.melds:
            continue
        if kinds.count("run") > goal.runs or kinds.count("set") > goal.sets:
            continue
        best = max(best, sum(spin.score(m) for m in melds))
    return best


# Hands drawn from few ranks and suits, so that melds (and clashes between them) are common.
hands = st.lists(
    st.sampled_from([c for c in DECK if c.rank in ("5", "6", "7", "8", "Q", "K", "A")]),
    min_size=6,
    max_size=6,
    unique=True,
).map(tuple)


@settings(max_examples=300, deadline=None)
@given(cards=hands, round_no=st.integers(min_value=1, max_value=5))
def test_the_partition_search_finds_what_brute_force_finds(
    cards: tuple[Card, ...], round_no: int
) -> None:
    goal = spin.contract(round_no)
    chosen = spin.best(spin.melds_in(cards), goal)
    assert sum(spin.score(m) for m in chosen) == brute_force(cards, goal)
    used = [c for m in chosen for c in m]
    assert len(used) == len(set(used)) and set(used) <= set(cards)
